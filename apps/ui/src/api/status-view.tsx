import { Alert, Loader } from '@mantine/core';
import { describeError } from './api-error';

/** The loading or error state of a call, in words (nothing once it has answered). */
export function StatusView({ loading, error }: { loading: boolean; error: unknown }) {
  if (error) return <Alert color="red" role="alert" title="Could not load">{describeError(error)}</Alert>;
  if (loading) return <Loader size="sm" aria-label="Loading" />;
  return null;
}
