import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../testing/file-plant.js';
import { tempDirectory } from '../../../testing/test-host.js';
import { thumbprint } from './server-trust.js';
import { type Agent, startAgent } from '../../../testing/opcua/opcua-plant.js';
import { OpcuaTestServer } from '../../../testing/opcua/opcua-test-server.js';

// One secure server for the file: SignAndEncrypt / Basic256Sha256 only, user name and password only.
let plc: OpcuaTestServer;
let agent: Agent | undefined;

beforeAll(async () => {
  plc = await OpcuaTestServer.start({ pkiFolder: tempDirectory('opcua-secure-pki-'), secure: true, users: { operator: 's3cret' } });
}, 60_000);
afterAll(async () => {
  await plc?.stop();
});
afterEach(async () => {
  await agent?.close();
  agent = undefined;
  plc.acceptClients(true);
});

const stream = { asset: 'Line_1', stream_type: 'process', opcua_tags: [{ name: 'ns=2;s=Double', exportname: 'temperature' }] };
const secure = (extra: Record<string, unknown> = {}) => ({
  host: '127.0.0.1',
  port: plc.port,
  security_mode: 'SignAndEncrypt',
  security_policy: 'Basic256Sha256',
  username: 'operator',
  password: 's3cret',
  ...extra,
});
const ownCertificate = (dataDirectory: string) => path.join(dataDirectory, 'components', 'receiver', 'plc', 'pki', 'own', 'certs', 'client_certificate.pem');

describe('opcua security', () => {
  it('reads over SignAndEncrypt/Basic256Sha256 with user and password; its certificate is created once and kept', async () => {
    const serverPrint = thumbprint(plc.certificateDer);
    agent = await startAgent({ connection: secure({ trusted_server_certificates: [serverPrint.toUpperCase().match(/../g)!.join(':')] }), streams: [stream] });
    await waitFor(() => agent!.valuesOf('temperature').length > 0, 30_000, 'values over the secure channel');
    expect(agent.valuesOf('temperature')[0]!.fieldvalues.temperature_status).toBe('Good');
    const certificate = fs.readFileSync(ownCertificate(agent.dataDirectory), 'utf8');
    // The server certificate is now in the receiver's trust list.
    expect(fs.readdirSync(path.join(agent.dataDirectory, 'components', 'receiver', 'plc', 'pki', 'trusted', 'certs')).join()).toContain(serverPrint);
    const dataDirectory = agent.dataDirectory;
    await agent.close();
    agent = await startAgent({ connection: secure({ trusted_server_certificates: [serverPrint] }), streams: [stream] }, dataDirectory);
    await waitFor(async () => (await agent!.serviceStatus()) === 'running', 30_000, 'reconnected');
    expect(fs.readFileSync(ownCertificate(dataDirectory), 'utf8')).toBe(certificate);
  }, 90_000);

  it('refuses an untrusted server certificate, shows its thumbprint, and connects once it is trusted', async () => {
    agent = await startAgent({ connection: secure(), streams: [stream] });
    const marker = await agent.marker('certificate_untrusted', 30_000);
    const serverPrint = thumbprint(plc.certificateDer);
    expect(marker.message).toContain(serverPrint);
    expect(marker.message).toContain('trusted_server_certificates');
    expect(await agent.serviceStatus()).toBe('unknown');
    expect(agent.records).toHaveLength(0);
    const rejected = path.join(agent.dataDirectory, 'components', 'receiver', 'plc', 'pki', 'rejected');
    expect(fs.readdirSync(rejected).join()).toContain(serverPrint);
    // The engineer compares the thumbprint and trusts it.
    const config = (await agent.server.call('GET', '/v1/config')).json.response;
    config.data_receiver[0].connections[0].trusted_server_certificates = [serverPrint];
    expect((await agent.server.call('POST', '/v1/config', config)).json.success).toBe(true);
    await waitFor(() => agent!.valuesOf('temperature').length > 0, 30_000, 'values once trusted');
    expect(await agent.markers('certificate_untrusted')).toHaveLength(0);
  }, 90_000);

  it('says so when the server rejects the agent certificate, and recovers once the server trusts it', async () => {
    plc.acceptClients(false);
    agent = await startAgent({ connection: secure({ trust_on_first_use: true }), streams: [stream] });
    const marker = await agent.marker('certificate_rejected', 30_000);
    const ownPrint = thumbprint(Buffer.from(fs.readFileSync(ownCertificate(agent.dataDirectory), 'utf8').replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64'));
    expect(marker.message).toContain(ownPrint);
    await plc.trustClient(ownCertificate(agent.dataDirectory));
    await waitFor(() => agent!.valuesOf('temperature').length > 0, 40_000, 'values once the server trusts us');
  }, 90_000);

  it('reports a wrong password as a login failure', async () => {
    agent = await startAgent({ connection: secure({ trust_on_first_use: true, password: 'wrong' }), streams: [stream] });
    const marker = await agent.marker('login_failed', 30_000);
    expect(marker.message).toContain('"operator"');
    expect(marker.message).toContain('BadUserAccessDenied');
    expect(agent.records).toHaveLength(0);
  }, 60_000);

  it('trusts on first use when configured, and refuses a different certificate later', async () => {
    agent = await startAgent({ connection: secure({ trust_on_first_use: true }), streams: [stream] });
    await waitFor(() => agent!.valuesOf('temperature').length > 0, 30_000, 'values after trust on first use');
    const first = thumbprint(plc.certificateDer);
    // The server is reinstalled with a new certificate (or someone impersonates it).
    await plc.restart(0, tempDirectory('opcua-other-pki-'));
    const marker = await agent.marker('certificate_untrusted', 40_000);
    expect(marker.message).toContain(first);
    expect(marker.message).toContain(thumbprint(plc.certificateDer));
    expect(marker.message).toContain('different certificate');
  }, 90_000);
});
