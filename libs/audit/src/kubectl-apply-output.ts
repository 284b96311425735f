/**
 * kubectl's advice after a server-side apply conflict (k8s.io/kubectl/pkg/cmd/apply, 1.18 to 1.32),
 * verbatim: kubectl prints it below the apiserver's message.
 */
const KUBECTL_CONFLICT_ADVICE = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`;

/**
 * What `kubectl apply --server-side` writes to stderr, byte for byte, when the apiserver answers its
 * objects' applies (in the manifest's order; kubectl goes on past a conflict) with these conflict
 * messages: for one, `error: ` then the message and the advice; for several, each message with the
 * advice and no prefix (kubectl prints an aggregate of errors one per line); nothing for none.
 */
export function kubectlConflictStderr(messages: readonly string[]): string {
  if (messages.length === 1) return `error: ${messages[0]}\n${KUBECTL_CONFLICT_ADVICE}\n`;
  return messages.map((m) => `${m}\n${KUBECTL_CONFLICT_ADVICE}\n`).join('');
}
