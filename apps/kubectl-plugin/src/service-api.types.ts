// The ssa-audit REST API answers the plugin reads: the service's own response types. Type-only
// imports, erased when compiled: the plugin loads nothing of apps/api (nor NestJS, nor zod).
import type { ListFindingsResponseDto } from '../../api/src/findings.dto.js';
import type { FieldHistoryResponseDto, ListObjectsResponseDto, OwnershipResponseDto } from '../../api/src/objects.dto.js';

export type { OwnerDto as Owner } from '../../api/src/common.dto.js';
export type { ListFindingsResponseDto as FindingPage } from '../../api/src/findings.dto.js';
export type {
  ExplainResponseDto as Explanation,
  FieldResponseDto as FieldAnswer,
  ListObjectsResponseDto as ObjectPage,
  OwnershipResponseDto as OwnershipAnswer,
} from '../../api/src/objects.dto.js';
export type { SimulateApplyResponseDto as SimulateAnswer } from '../../api/src/simulate.dto.js';

export type ObjectItem = ListObjectsResponseDto['items'][number];
export type Finding = ListFindingsResponseDto['items'][number];
export type OwnershipNode = OwnershipResponseDto['tree'];

/** `GET /v1/objects/{id}/fields/history` (`manager` and `operation` are null where the writer is unknown: a deleted object's `removed`). */
export type HistoryAnswer = FieldHistoryResponseDto;
