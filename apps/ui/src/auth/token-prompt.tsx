import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { readToken, saveToken } from '../api/token-store';

/**
 * Asks for a bearer token (after a 401, or from the header's button). It is kept for this tab
 * (sessionStorage) and sent on every call; empty means none (a proxy adds the header).
 */
export function TokenPrompt({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [token, setToken] = useState(readToken() ?? '');
  const save = () => {
    saveToken(token);
    onClose();
    location.reload();
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Bearer token" centered>
      <Stack>
        <Text size="sm">
          The API asks for a token the cluster accepts (for example <code>kubectl create token my-sa</code>). It stays in this browser tab
          only. With <code>kubectl ssa-audit ui</code> no token is needed: its proxy adds it.
        </Text>
        <PasswordInput label="Token" value={token} onChange={(e) => setToken(e.currentTarget.value)} data-autofocus
          onKeyDown={(e) => e.key === 'Enter' && save()} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => { setToken(''); saveToken(null); onClose(); location.reload(); }}>Forget token</Button>
          <Button onClick={save}>Use token</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
