import { Badge, Group, UnstyledButton } from '@mantine/core';
import type { FieldNode } from '../api/api-types';
import { identityKey } from '../managers/identity-key';
import { ManagerChip } from '../managers/manager-chip';

/** A value as it reads in YAML-ish text, cut short. */
export function valueText(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s === undefined ? '' : s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

/**
 * The object's fields as a tree: each field with its value and its owners as chips; a field with
 * more than one owner is marked co-owned. Activating a field opens it (owners over time, explain).
 * Nested lists of buttons (Tab moves from field to field), not an ARIA tree.
 */
export function FieldTree({ tree, selected, onOpen }: { tree: FieldNode; selected: string | null; onOpen: (path: string) => void }) {
  return (
    <ul aria-label="Fields" style={{ listStyle: 'none', paddingLeft: 0, margin: 0 }}>
      {tree.children.map((c) => <FieldRow key={c.path} node={c} depth={0} selected={selected} onOpen={onOpen} />)}
    </ul>
  );
}

function FieldRow({ node, depth, selected, onOpen }: { node: FieldNode; depth: number; selected: string | null; onOpen: (path: string) => void }) {
  const coOwned = node.owners.length > 1;
  return (
    <li data-path={node.path}>
      <Group gap={6} wrap="wrap" pl={depth * 16} py={2} style={{ background: selected === node.path ? 'var(--mantine-color-blue-light)' : undefined }}>
        <UnstyledButton onClick={() => onOpen(node.path)} aria-label={`Open field ${node.path}`} aria-current={selected === node.path ? 'true' : undefined} style={{ fontFamily: 'monospace', fontWeight: node.owned ? 600 : 400 }}>
          {node.segment}
        </UnstyledButton>
        {'value' in node && <code data-testid="field-value">{valueText(node.value)}</code>}
        {coOwned && <Badge size="sm" color="grape" variant="filled" aria-label="co-owned">co-owned ({node.owners.length})</Badge>}
        {node.owners.map((o) => <ManagerChip key={identityKey(o)} owner={o} />)}
      </Group>
      {node.children.length > 0 && (
        <ul style={{ listStyle: 'none', paddingLeft: 0, margin: 0 }}>
          {node.children.map((c) => <FieldRow key={c.path} node={c} depth={depth + 1} selected={selected} onOpen={onOpen} />)}
        </ul>
      )}
    </li>
  );
}
