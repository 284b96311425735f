/**
 * Generates libs/sandbox/src/protobuf/k8s-proto-fields.json: for each protobuf message of the
 * Kubernetes API types the sandbox decodes (kubectl's typed clients send protobuf bodies), its
 * field numbers with name, type and cardinality. Data only, read off the `generated.proto` files
 * of k8s.io/api and k8s.io/apimachinery (field numbers never change once released).
 *
 * Usage: tsx scripts/generate-proto-fields.ts DIR, where DIR holds `k8s.io/api/<group>/<version>/generated.proto`
 * and `k8s.io/apimachinery/pkg/.../generated.proto` as in a GOPATH.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Field = [name: string, type: string, label: 'optional' | 'repeated' | 'map', mapValue?: string];

function protoFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? protoFiles(p) : n.endsWith('.proto') ? [p] : [];
  });
}

const SCALARS = new Set(['string', 'int32', 'int64', 'uint32', 'uint64', 'bool', 'bytes', 'double', 'float', 'sint32', 'sint64', 'fixed32', 'fixed64']);

function qualify(type: string, pkg: string): string {
  if (SCALARS.has(type)) return type;
  return type.startsWith('.') ? type.slice(1) : `${pkg}.${type}`;
}

const out: Record<string, Record<number, Field>> = {};
for (const file of protoFiles(process.argv[2] ?? '.').sort()) {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const pkg = /^\s*package\s+([\w.]+);/m.exec(text)?.[1];
  if (!pkg) continue;
  for (const m of text.matchAll(/message\s+(\w+)\s*\{([^}]*)\}/g)) {
    const fields: Record<number, Field> = {};
    for (const line of m[2]!.split(';')) {
      const f = /^\s*(optional|repeated)\s+([\w.]+)\s+(\w+)\s*=\s*(\d+)/.exec(line);
      const mp = /^\s*map<\s*string\s*,\s*([\w.]+)\s*>\s+(\w+)\s*=\s*(\d+)/.exec(line);
      if (f) fields[Number(f[4])] = [f[3]!, qualify(f[2]!, pkg), f[1] as 'optional' | 'repeated'];
      else if (mp) fields[Number(mp[3])] = [mp[2]!, 'map', 'map', qualify(mp[1]!, pkg)];
    }
    out[`${pkg}.${m[1]}`] = fields;
  }
}
writeFileSync('libs/sandbox/src/protobuf/k8s-proto-fields.json', JSON.stringify(out) + '\n');
console.log(`${Object.keys(out).length} messages`);
