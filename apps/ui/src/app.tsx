import { AppShell, Button, Center, Group, Loader, Text, Title } from '@mantine/core';
import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react';
import { onUnauthorized } from './api/api-client';
import { readToken } from './api/token-store';
import { TokenPrompt } from './auth/token-prompt';
import { FindPage } from './pages/find.page';
import { ObjectPage } from './pages/object.page';
import { Link } from './routing/link';
import { href, useRoute } from './routing/route';

// Heavier or rarer views load on demand, so the first page stays small.
const SimulatePage = lazy(() => import('./pages/simulate.page'));
const FindingsPage = lazy(() => import('./pages/findings.page'));
const ManagersPage = lazy(() => import('./pages/managers.page'));

export function App() {
  const route = useRoute();
  const [asking, setAsking] = useState(false);
  useEffect(() => onUnauthorized(() => setAsking(true)), []);
  let page: ReactNode;
  switch (route.view) {
    case 'find': page = <FindPage params={route.params} />; break;
    case 'object': page = <ObjectPage key={route.id} id={route.id} params={route.params} />; break;
    case 'simulate': page = <SimulatePage params={route.params} />; break;
    case 'findings': page = <FindingsPage params={route.params} />; break;
    case 'managers': page = <ManagersPage params={route.params} />; break;
    case 'not-found': page = <Text>No such page. <Link to={href('/')}>Find objects</Link></Text>; break;
  }
  return (
    <AppShell header={{ height: { base: 96, sm: 56 } }} padding="md">
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="wrap" gap="xs" py={6}>
          <Group gap="md" wrap="wrap">
            <Title order={1} size="h4"><Link to={href('/')}>ssa-audit</Link></Title>
            <nav aria-label="Views">
              <Group gap="md" wrap="wrap">
                <Link to={href('/')}>Find</Link>
                <Link to={href('/findings')}>Findings</Link>
                <Link to={href('/managers')}>Managers</Link>
                <Link to={href('/simulate')}>Simulate</Link>
              </Group>
            </nav>
          </Group>
          <Button size="xs" variant="default" onClick={() => setAsking(true)}>{readToken() ? 'Token set' : 'Set token'}</Button>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <main>
          <Suspense fallback={<Center><Loader aria-label="Loading" /></Center>}>{page}</Suspense>
        </main>
      </AppShell.Main>
      <TokenPrompt opened={asking} onClose={() => setAsking(false)} />
    </AppShell>
  );
}
