import { Badge, Tooltip } from '@mantine/core';
import type { Identity } from '../api/api-types';
import { managerStyle, type ManagerStyle } from './manager-style';

/** How an identity reads: `manager (Update, scale)`. */
export function identityText(o: Pick<Identity, 'manager' | 'operation' | 'subresource'>): string {
  return `${o.manager} (${o.operation}${o.subresource ? `, ${o.subresource}` : ''})`;
}

/** A manager identity as a chip: its colour, its letters and border pattern, operation and subresource. */
export function ManagerChip({ owner }: { owner: Pick<Identity, 'manager' | 'operation' | 'subresource'> & { apiVersion?: string } }) {
  const s = managerStyle(owner.manager);
  return (
    <Tooltip label={`${identityText(owner)}${owner.apiVersion ? ` · ${owner.apiVersion}` : ''}`} withArrow openDelay={300}>
      <Badge
        variant="outline"
        radius="sm"
        tt="none"
        styles={{ root: { borderColor: s.color, borderStyle: s.border, borderWidth: 2, color: 'var(--mantine-color-text)', background: `${s.color}22` } }}
        leftSection={<LetterMark look={s} />}
        data-manager={owner.manager}
      >
        {owner.manager}
        <span style={{ opacity: 0.75 }}> · {owner.operation === 'Apply' ? 'Apply' : 'Update'}{owner.subresource ? `/${owner.subresource}` : ''}</span>
      </Badge>
    </Tooltip>
  );
}

/** The manager's badge letters on its colour, at the start of its chip. */
function LetterMark({ look }: { look: ManagerStyle }) {
  return (
    <span aria-hidden="true" style={{ background: look.color, color: '#000', borderRadius: 3, padding: '0 3px', fontSize: 10, fontWeight: 700 }}>
      {look.letter}
    </span>
  );
}
