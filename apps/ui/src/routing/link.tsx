import { Anchor } from '@mantine/core';
import type { MouseEvent, ReactNode } from 'react';
import { navigate } from './route';

/** A link that navigates inside the UI without a reload (and still opens in a new tab). */
export function Link({ to, children, label }: { to: string; children: ReactNode; label?: string }) {
  const click = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <Anchor href={to} onClick={click} aria-label={label}>{children}</Anchor>;
}
