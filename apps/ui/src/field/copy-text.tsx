import { Button, Code, CopyButton, Group } from '@mantine/core';

/** A command or patch in a code block, with a copy button. */
export function CopyText({ text, label }: { text: string; label: string }) {
  return (
    <Group align="start" wrap="nowrap" gap="xs">
      <Code block style={{ flex: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{text}</Code>
      <CopyButton value={text}>
        {({ copied, copy }) => (
          <Button size="xs" variant={copied ? 'filled' : 'default'} onClick={copy} aria-label={`Copy ${label}`}>{copied ? 'Copied' : 'Copy'}</Button>
        )}
      </CopyButton>
    </Group>
  );
}
