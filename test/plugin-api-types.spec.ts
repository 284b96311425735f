// The kubectl plugin writes the API's answers out by hand (apps never import each other); this
// keeps them in step with the service's response schemas. The check is the type-check itself
// (`npm run typecheck`): each pair must be assignable both ways.
import type { ListFindingsResponseDto } from '../apps/api/src/findings.dto.js';
import type { ExplainResponseDto, FieldHistoryResponseDto, FieldResponseDto, ListObjectsResponseDto, OwnershipResponseDto } from '../apps/api/src/objects.dto.js';
import type { SimulateApplyResponseDto } from '../apps/api/src/simulate.dto.js';
import type { Explanation, FieldAnswer, FindingPage, HistoryAnswer, ObjectPage, OwnershipAnswer, SimulateAnswer } from '../apps/kubectl-plugin/src/service-api.types.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const inStep: {
  objects: Same<ObjectPage, ListObjectsResponseDto>;
  field: Same<FieldAnswer, FieldResponseDto>;
  ownership: Same<OwnershipAnswer, OwnershipResponseDto>;
  history: Same<HistoryAnswer, FieldHistoryResponseDto>;
  explain: Same<Explanation, ExplainResponseDto>;
  findings: Same<FindingPage, ListFindingsResponseDto>;
  simulate: Same<SimulateAnswer, SimulateApplyResponseDto>;
} = { objects: true, field: true, ownership: true, history: true, explain: true, findings: true, simulate: true };

describe('the kubectl plugin reads the answers the API gives', () => {
  it('has every answer type in step with the response schemas (checked by the type-check)', () => {
    expect(Object.values(inStep).every((v) => v === true)).toBe(true);
  });
});
