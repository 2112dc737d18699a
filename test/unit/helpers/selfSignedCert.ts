/**
 * A self-signed certificate for 127.0.0.1 and localhost, made in memory for the HTTPS tests: a fresh P-256
 * key and the certificate's DER built here and signed with node:crypto, so no openssl binary is needed and
 * no key is kept in the repository. Valid from an hour ago for a day.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/** One DER element: its tag, its length (short or long form) and its content. */
function der(tag: number, ...parts: Buffer[]): Buffer {
  const content = Buffer.concat(parts);
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const lengthBytes = Buffer.from(length.toString(16).padStart(length > 0xff ? 4 : 2, '0'), 'hex');
  return Buffer.concat([Buffer.from([tag, 0x80 | lengthBytes.length]), lengthBytes, content]);
}

const sequence = (...parts: Buffer[]) => der(0x30, ...parts);
const oid = (hex: string) => der(0x06, Buffer.from(hex, 'hex'));
const utcTime = (date: Date) => der(0x17, Buffer.from(date.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z'));
/** The one name both subject and issuer carry: CN=localhost. */
const name = sequence(der(0x31, sequence(oid('550403'), der(0x0c, Buffer.from('localhost')))));
const ecdsaWithSha256 = sequence(oid('2a8648ce3d040302'));

function extensions(): Buffer {
  // basicConstraints CA:TRUE, so the certificate can be its own trust anchor (as `openssl req -x509` makes it).
  const basicConstraints = sequence(oid('551d13'), der(0x04, sequence(der(0x01, Buffer.from([0xff])))));
  // subjectAltName: DNS localhost, IP 127.0.0.1 (what TLS checks the host name against).
  const altNames = sequence(der(0x82, Buffer.from('localhost')), der(0x87, Buffer.from([127, 0, 0, 1])));
  const subjectAltName = sequence(oid('551d11'), der(0x04, altNames));
  return der(0xa3, sequence(basicConstraints, subjectAltName));
}

function certificateDer(publicKey: KeyObject, privateKey: KeyObject): Buffer {
  const now = Date.now();
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([2]))), // version 3
    der(0x02, Buffer.from([1])), // serial number
    ecdsaWithSha256,
    name,
    sequence(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions(),
  );
  const signature = sign('sha256', tbs, privateKey);
  return sequence(tbs, ecdsaWithSha256, der(0x03, Buffer.from([0]), signature));
}

export interface SelfSignedCert {
  /** PEM: the server's certificate and the CA a client trusts it by. */
  cert: string;
  /** PEM: the server's private key. */
  key: string;
}

export function makeSelfSignedCert(): SelfSignedCert {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const body = certificateDer(publicKey, privateKey).toString('base64').replace(/.{64}/g, '$&\n');
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { cert: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`, key };
}
