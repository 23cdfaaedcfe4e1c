/**
 * A self-signed certificate made at test time (node-forge writes it), so no private key is kept in
 * the repository: valid from an hour ago for a day, naming the hosts it serves in subjectAltName,
 * and its own CA, so a client given it as `ca` trusts a server that presents it.
 */
import { generateKeyPairSync, randomBytes } from "crypto";
import { isIP } from "net";
import { md, pki } from "node-forge";

export interface SelfSignedCert {
    /** PEM. */
    key: string;
    /** PEM; also what a client trusts (`ca`). */
    cert: string;
}

/** 127.0.0.1, localhost, and a name the proxy tests reach the emulator by. */
export const TEST_HOSTS = ["127.0.0.1", "localhost", "vast.test"];

export function selfSignedCert(hosts: readonly string[] = TEST_HOSTS): SelfSignedCert {
    // Node's crypto makes the key: node-forge's own RSA key generation is pure JavaScript, and slow.
    const { privateKey, publicKey } = generateKeyPairSync("rsa", {
        modulusLength: 2048,
        privateKeyEncoding: { type: "pkcs8", format: "pem" },
        publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const cert = pki.createCertificate();
    cert.publicKey = pki.publicKeyFromPem(publicKey);
    // A positive serial: a leading 0 bit.
    cert.serialNumber = `01${randomBytes(8).toString("hex")}`;
    const now = Date.now();
    cert.validity.notBefore = new Date(now - 3600_000);
    cert.validity.notAfter = new Date(now + 86_400_000);
    const name = [{ name: "commonName", value: "pulumi-vastai test" }];
    cert.setSubject(name);
    cert.setIssuer(name);
    cert.setExtensions([
        { name: "basicConstraints", cA: true },
        { name: "subjectAltName", altNames: hosts.map((host) => (isIP(host) ? { type: 7, ip: host } : { type: 2, value: host })) },
    ]);
    cert.sign(pki.privateKeyFromPem(privateKey), md.sha256.create());
    return { key: privateKey, cert: pki.certificateToPem(cert) };
}
