import { Button, Code, Grid, Group, Stack, Switch, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { apiCall } from '../api/api-client';
import type { Ownership, SimulateAnswer } from '../api/api-types';
import { StatusView } from '../api/status-view';
import { useApi } from '../api/use-api';
import { identityKey } from '../managers/identity-key';
import { ManagerChip } from '../managers/manager-chip';
import { Link } from '../routing/link';
import { href, navigate, withParams } from '../routing/route';
import { fieldsByIdentity } from '../simulate/today-owners';
import { apiVersionText } from './find.page';

const EXAMPLE = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
  namespace: default
data:
  LOG_LEVEL: info
`;

/** The start of a manifest for a tracked object: its apiVersion, kind, name and namespace. */
function manifestSkeleton(o: Ownership['object']): string {
  const ns = o.namespace ? `\n  namespace: ${o.namespace}` : '';
  return `apiVersion: ${apiVersionText(o)}\nkind: ${o.kind}\nmetadata:\n  name: ${o.name}${ns}\n`;
}

/** What a server-side apply would do, computed offline: conflicts as kubectl prints them, pruned and kept fields, the resulting managedFields. */
export default function SimulatePage({ params }: { params: URLSearchParams }) {
  const [cluster, setCluster] = useState(params.get('cluster') ?? '');
  const [manager, setManager] = useState(params.get('manager') ?? 'kubectl');
  const [force, setForce] = useState(params.get('force') === 'true');
  const [manifest, setManifest] = useState(params.get('manifest') ?? EXAMPLE);
  const [answer, setAnswer] = useState<SimulateAnswer | undefined>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  // From an object's page (`object=`): start from a manifest naming that object.
  const from = useApi<Ownership>(params.get('object') && !params.get('manifest') ? `/v1/objects/${params.get('object')}/ownership` : null);
  useEffect(() => {
    if (from.data) setManifest(manifestSkeleton(from.data.object));
  }, [from.data]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    navigate(withParams({ cluster, manager, force: force ? 'true' : null, manifest: manifest.length <= 4000 ? manifest : null }), true);
    setBusy(true);
    try {
      setAnswer(await apiCall<SimulateAnswer>('/v1/simulate/apply', { method: 'POST', body: { cluster, manager, force, manifest } }));
      setError(undefined);
    } catch (err) {
      setError(err);
      setAnswer(undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <Title order={2}>Simulate a server-side apply</Title>
      <form onSubmit={submit} aria-label="Simulate">
        <Stack>
          <Group align="end" wrap="wrap">
            <TextInput label="Cluster" value={cluster} onChange={(e) => setCluster(e.currentTarget.value)} required />
            <TextInput label="Field manager" value={manager} onChange={(e) => setManager(e.currentTarget.value)} required />
            <Switch label="Force conflicts" checked={force} onChange={(e) => setForce(e.currentTarget.checked)} />
            <Button type="submit" loading={busy}>Simulate</Button>
          </Group>
          <Textarea label="Manifest (YAML or JSON)" value={manifest} onChange={(e) => setManifest(e.currentTarget.value)} autosize minRows={8} maxRows={30}
            styles={{ input: { fontFamily: 'monospace' } }} spellCheck={false} />
        </Stack>
      </form>
      <StatusView loading={false} error={error} />
      {answer && <SimulateResult answer={answer} />}
    </Stack>
  );
}

function SimulateResult({ answer }: { answer: SimulateAnswer }) {
  const today = useApi<Ownership>(answer.objectId ? `/v1/objects/${answer.objectId}/ownership` : null);
  return (
    <Stack component="section" aria-label="Simulation result">
      {answer.objectId ? <Text>Against <Link to={href(`/objects/${answer.objectId}`)}>object {answer.objectId}</Link> as tracked now.</Text> : <Text>The object is not tracked: this apply creates it.</Text>}
      {answer.kubectlStderr !== null ? (
        <>
          <Title order={3}>Conflicts ({answer.conflicts.length})</Title>
          <Code block aria-label="kubectl output" style={{ whiteSpace: 'pre-wrap' }}>{answer.kubectlStderr}</Code>
        </>
      ) : (
        <Text fw={600}>No conflicts: the apply would succeed.</Text>
      )}
      {answer.pruned.length > 0 && (
        <><Title order={4}>Pruned (the manager stops applying them and nobody else owns them)</Title>
          <ul>{answer.pruned.map((p) => <li key={p}><code>{p}</code></li>)}</ul></>
      )}
      {answer.kept.length > 0 && (
        <><Title order={4}>Kept (released, but others own them)</Title>
          <ul>{answer.kept.map((k) => <li key={k.path}><code>{k.path}</code> kept by <Group gap={4} component="span" display="inline-flex">{k.owners.map((o) => <ManagerChip key={identityKey(o)} owner={o} />)}</Group></li>)}</ul></>
      )}
      {answer.result && (
        <Grid>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Title order={4}>managedFields today</Title>
            {today.data ? <TodayOwners ownership={today.data} /> : <Text size="sm">{answer.objectId ? '…' : 'none (new object)'}</Text>}
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Title order={4}>managedFields after the apply</Title>
            <Code block style={{ maxHeight: 480, overflow: 'auto' }}>{JSON.stringify(answer.result.managedFields, null, 2)}</Code>
          </Grid.Col>
        </Grid>
      )}
      <StatusView loading={false} error={today.error} />
    </Stack>
  );
}

function TodayOwners({ ownership }: { ownership: Ownership }) {
  return (
    <Table aria-label="managedFields today">
      <Table.Tbody>
        {fieldsByIdentity(ownership.tree).map(({ key, identity, paths }) => (
          <Table.Tr key={key}>
            <Table.Td><ManagerChip owner={identity} /></Table.Td>
            <Table.Td>{paths.map((p) => <div key={p}><code>{p}</code></div>)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
