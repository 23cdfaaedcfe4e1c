import { generateKeyPairSync, randomBytes, sign } from "crypto";
import { isIP } from "net";

/**
 * A self-signed certificate made at test time, so no private key is kept in the repository and no
 * dependency is added: an RSA key from Node's crypto and a minimal X.509 v3 certificate written in
 * DER by hand (RFC 5280), signed sha256WithRSAEncryption, valid from an hour ago for a day. It
 * names the hosts it serves in subjectAltName (DNS names and IP addresses) and is its own CA, so
 * a client given it as `ca` trusts a server that presents it.
 */
export interface SelfSignedCert {
    /** PEM. */
    key: string;
    /** PEM; also what a client trusts (`ca`). */
    cert: string;
}

/** 127.0.0.1, localhost, and a name the proxy tests reach the emulator by. */
export const TEST_HOSTS = ["127.0.0.1", "localhost", "vast.test"];

export function selfSignedCert(hosts: readonly string[] = TEST_HOSTS): SelfSignedCert {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const name = sequence(set(sequence(oid("2.5.4.3"), tlv(0x0c, Buffer.from("pulumi-vastai test")))));
    const sha256WithRsa = sequence(oid("1.2.840.113549.1.1.11"), tlv(0x05, Buffer.alloc(0)));
    const now = Date.now();
    const altNames = hosts.map((host) => (isIP(host) ? tlv(0x87, ipBytes(host)) : tlv(0x82, Buffer.from(host))));
    const extensions = sequence(
        extension("2.5.29.17", sequence(...altNames)), // subjectAltName
        extension("2.5.29.19", sequence(tlv(0x01, Buffer.from([0xff])))), // basicConstraints: CA
    );
    const tbs = sequence(
        tlv(0xa0, integer(Buffer.from([2]))), // version: v3
        integer(randomBytes(8)),
        sha256WithRsa,
        name,
        sequence(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + 86_400_000))),
        name,
        publicKey.export({ type: "spki", format: "der" }),
        tlv(0xa3, extensions),
    );
    const signature = sign("sha256", tbs, privateKey);
    const der = sequence(tbs, sha256WithRsa, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
    return { key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), cert: pem("CERTIFICATE", der) };
}

/** One DER element: tag, length (short or long form), content. */
function tlv(tag: number, content: Buffer): Buffer {
    const n = content.length;
    const length = n < 0x80 ? Buffer.from([n]) : lengthBytes(n);
    return Buffer.concat([Buffer.from([tag]), length, content]);
}

function lengthBytes(n: number): Buffer {
    const bytes: number[] = [];
    for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
    return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function sequence(...parts: Buffer[]): Buffer {
    return tlv(0x30, Buffer.concat(parts));
}

function set(...parts: Buffer[]): Buffer {
    return tlv(0x31, Buffer.concat(parts));
}

/** A positive INTEGER from big-endian bytes (a leading zero when the top bit is set). */
function integer(bytes: Buffer): Buffer {
    return tlv(0x02, bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function oid(dotted: string): Buffer {
    const [first, second, ...rest] = dotted.split(".").map(Number);
    const base128 = (n: number) => {
        const out = [n & 0x7f];
        for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) out.unshift((v & 0x7f) | 0x80);
        return out;
    };
    return tlv(0x06, Buffer.from([first * 40 + second, ...rest.flatMap(base128)]));
}

/** UTCTime, YYMMDDHHMMSSZ (years 1950–2049). */
function utcTime(date: Date): Buffer {
    return tlv(0x17, Buffer.from(date.toISOString().replace(/[-:T]/g, "").slice(2, 14) + "Z"));
}

/** An extension, not critical: its id and its value wrapped in an OCTET STRING. */
function extension(id: string, value: Buffer): Buffer {
    return sequence(oid(id), tlv(0x04, value));
}

function ipBytes(address: string): Buffer {
    if (isIP(address) === 4) return Buffer.from(address.split(".").map(Number));
    throw new Error(`selfSignedCert: only IPv4 addresses are written, not ${address}`);
}

function pem(label: string, der: Buffer): string {
    const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
    return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}
