import { generate } from 'selfsigned';

export interface ServingCertificate {
  readonly key: string;
  readonly cert: string;
}

/**
 * A self-signed serving certificate for the sandbox: its own CA (so a kubeconfig can trust it with
 * `certificate-authority-data`), valid for `localhost` and the loopback addresses.
 */
export async function selfSignedCertificate(host: string): Promise<ServingCertificate> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 365 * 24 * 3600 * 1000);
  const ip = /^[\d.]+$/.test(host) || host.includes(':');
  const pems = await generate([{ name: 'commonName', value: 'ssa-sandbox' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' } as const,
          { type: 7, ip: '127.0.0.1' } as const,
          ...(ip && host !== '127.0.0.1' && host !== '0.0.0.0' ? [{ type: 7, ip: host } as const] : !ip && host !== 'localhost' ? [{ type: 2, value: host } as const] : []),
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
