import { Command, CommanderError, Option } from 'commander';
import { findings } from './commands/findings.command.js';
import { history } from './commands/history.command.js';
import { simulate } from './commands/simulate.command.js';
import { ui } from './commands/ui.command.js';
import { why } from './commands/why.command.js';
import { whoOwns } from './commands/who-owns.command.js';
import { exitCodeOf, type ExitCode } from './exit-code.js';
import { parseOutputFormat } from './output-format.js';
import { PluginSession, type PluginEnvironment, type SessionOptions } from './plugin-session.js';

/** Everything the plugin takes from its process, so that it runs the same under test. */
export interface PluginIo extends PluginEnvironment {
  readonly readStdin: () => Promise<string>;
  /** Resolves when the user interrupts (SIGINT/SIGTERM): `ui` serves until then. */
  readonly interrupted: () => Promise<void>;
}

/** The common options as commander parses them: the session's, and how to answer. */
interface CommonFlags extends SessionOptions {
  readonly allNamespaces?: boolean;
  readonly output?: string;
}

const DESCRIPTION = [
  'Field ownership answers from the ssa-audit service, for the objects of your current context.',
  '',
  'The service: --server URL (or SSA_AUDIT_SERVER), else a port-forward to a ready pod behind the Service --service-name in --service-namespace of the current context.',
  "Credentials: your kubeconfig user's token or exec credential plugin (as kubectl), or --token (SSA_AUDIT_TOKEN).",
  'Exit codes: 0 found, 1 error, 2 bad usage, 3 not found.',
].join('\n');

/** The options every command takes. */
function common(cmd: Command, env: PluginIo['env']): Command {
  return cmd
    .option('-n, --namespace <namespace>', 'the namespace of the object (default: the context\'s, else "default")')
    .option('--context <name>', 'the kubeconfig context to use')
    .option('--kubeconfig <file>', 'the kubeconfig file to use (default: KUBECONFIG, else ~/.kube/config)')
    .option('--cluster <name>', 'the cluster name the service tracks the object under, when it tracks several')
    .addOption(new Option('--server <url>', 'the service URL (skips the port-forward)').default(env['SSA_AUDIT_SERVER'] || undefined, '$SSA_AUDIT_SERVER'))
    .addOption(new Option('--token <token>', 'the bearer token to send instead of the kubeconfig user\'s').default(env['SSA_AUDIT_TOKEN'] || undefined, '$SSA_AUDIT_TOKEN'))
    .option('--service-namespace <namespace>', 'the namespace of the service (deploy/ installs it in ssa-audit)', 'ssa-audit')
    .option('--service-name <name>', 'the Service to port-forward to', 'ssa-audit-api')
    .option('-o, --output <format>', 'json or yaml: the service\'s answer, for scripts');
}

/** Runs `kubectl ssa-audit <argv>` and answers its exit code; errors go to stderr as kubectl prints them. */
export async function runPlugin(argv: readonly string[], io: PluginIo): Promise<ExitCode> {
  let code: ExitCode = 0;
  let session: PluginSession | undefined;
  /** Runs one command's body with its session, keeping the exit code it answers. */
  const action =
    <A extends unknown[]>(body: (s: PluginSession, flags: CommonFlags, ...args: A) => Promise<number | void>) =>
    async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      const flags = cmd.opts<CommonFlags>();
      session = new PluginSession(flags, io);
      const answer = await body(session, flags, ...(args.slice(0, -2) as A));
      code = (answer ?? 0) as ExitCode;
    };
  const output = (f: CommonFlags) => parseOutputFormat(f.output);

  const program = new Command('kubectl ssa-audit')
    .description(DESCRIPTION)
    .exitOverride()
    .configureOutput({ writeOut: io.write, writeErr: io.writeError })
    .showHelpAfterError('(run with --help for usage)');

  /** The three questions about one field of one object: `<name> TYPE/NAME PATH [--at T]`. */
  const fieldCommand = (name: string, description: string, at: string, body: typeof whoOwns) =>
    common(program.command(name).description(description), io.env)
      .argument('<TYPE/NAME>', 'the object, as kubectl names it: deploy/web, configmap/config, deployments.apps/web')
      .argument('<PATH>', 'the field: .spec.replicas, .metadata.labels.team, .spec.containers[name="app"].image')
      .option('--at <time>', `${at} an RFC 3339 time or an event sequence number`)
      .action(action((s, f, obj: string, path: string) => body(s, obj, path, { ...(f as { at?: string }), output: output(f) })));
  fieldCommand('who-owns', 'who owns a field (and the owned fields under it)', 'as of', whoOwns);
  fieldCommand('history', "a field's ownership transitions and values", 'up to', history);
  fieldCommand('why', 'why a field is (still) there or gone, with remedies', 'as of', why);

  common(program.command('simulate').description('what `kubectl apply --server-side -f FILE` would print, and what it would prune or keep'), io.env)
    .requiredOption('-f, --filename <file>', 'the manifest (- for stdin)')
    .option('--field-manager <name>', 'the field manager of the apply', 'kubectl')
    .option('--force-conflicts', 'simulate --force-conflicts', false)
    .action(
      action((s, f) => {
        const g = f as CommonFlags & { filename: string; fieldManager: string; forceConflicts: boolean };
        return simulate(s, { filename: g.filename, fieldManager: g.fieldManager, forceConflicts: g.forceConflicts, output: output(f) }, io.readStdin);
      }),
    );

  common(program.command('findings').description('findings of the service (contested replicas, leftovers, …) in a namespace'), io.env)
    .option('-A, --all-namespaces', 'findings of every namespace (and cluster-scoped objects)')
    .option('--type <types>', 'only these types (comma-separated)')
    .action(action((s, f) => findings(s, { ...(f as { type?: string }), ...(f.allNamespaces ? { allNamespaces: true } : {}), output: output(f) })));

  common(program.command('ui').description('open the web UI through a local proxy that adds your credentials'), io.env)
    .option('--no-browser', 'print the URL only')
    .action(action((s, f) => ui(s, { browser: (f as { browser?: boolean }).browser !== false }, io.interrupted())));

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help asked for: 0. Anything commander refused (unknown flag, missing argument, no command): bad usage.
      return e.exitCode === 0 ? 0 : 2;
    }
    io.writeError(`error: ${(e as Error).message}\n`);
    return exitCodeOf(e);
  } finally {
    await session?.close();
  }
}
