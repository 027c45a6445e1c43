import fs from 'node:fs';
import path from 'node:path';
import {
  AccessRestrictionsFlag,
  DataValue,
  DataType,
  MessageSecurityMode,
  OPCUACertificateManager,
  OPCUAServer,
  PermissionFlag,
  type ReadRawModifiedDetails,
  SecurityPolicy,
  type StatusCode,
  StatusCodes,
  type UAVariable,
  Variant,
  VariantArrayType,
  WellKnownRoles,
} from 'node-opcua';
import { installOpcuaLogBridge } from '../../agent/receivers/opcua/opcua-log.js';
import { pemToDer } from '../../agent/receivers/opcua/server-trust.js';

/** Test tags under Objects/Plant, node ids ns=2;s=<name>. */
export const TEST_TAGS = {
  Bool: { dataType: DataType.Boolean, value: true },
  Int32: { dataType: DataType.Int32, value: -42 },
  Int64: { dataType: DataType.Int64, value: [0, 7] },
  UInt16: { dataType: DataType.UInt16, value: 65535 },
  Float: { dataType: DataType.Float, value: 1.5 },
  Double: { dataType: DataType.Double, value: 21.25 },
  String: { dataType: DataType.String, value: 'Running' },
  DateTime: { dataType: DataType.DateTime, value: new Date('2026-01-05T06:00:00.123Z') },
  Zones: { dataType: DataType.Double, value: [180.5, 181, 182.5], array: true },
  Profile: { dataType: DataType.Int32, value: Array.from({ length: 100 }, (_, i) => i), array: true },
  Counter: { dataType: DataType.UInt32, value: 0 },
} as const;
export type TestTag = keyof typeof TEST_TAGS;

export interface TestServerOptions {
  pkiFolder: string;
  port?: number;
  /** Only SignAndEncrypt / Basic256Sha256 with user name and password (no None endpoint). */
  secure?: boolean;
  users?: Record<string, string>;
  /** Trust every client certificate (default true). */
  acceptClients?: boolean;
  /** Tags whose values the server historizes (HistoryRead); their history survives a restart. */
  historize?: TestTag[];
}

/**
 * A real node-opcua server on a free loopback port for tests (and the benchmark). Its PKI lives in
 * `pkiFolder`, so a restart keeps its certificate, as a real server's would.
 */
export class OpcuaTestServer {
  private server: OPCUAServer | undefined;
  private certificates: OPCUACertificateManager | undefined;
  private userCertificates: OPCUACertificateManager | undefined;
  private readonly variables = new Map<string, UAVariable>();
  /** History per historized tag, kept across restarts as a plant historian keeps it. */
  private readonly history = new Map<string, KeptHistory>();
  /** HistoryRead requests served. */
  historyReads = 0;
  /** Each HistoryRead answer waits this long (a slow historian, to watch a backfill's progress). */
  historyDelayMs = 0;
  port = 0;
  /** Sessions clients created and closed on this server since it started (a client that keeps its session creates one). */
  sessionsCreated = 0;
  sessionsClosed = 0;
  /** Read requests served (a polling client sends one per poll, per chunk of nodes). */
  readRequests = 0;

  /**
   * Refuses every CreateSubscription with BadTooManySubscriptions (a server at its limit), or takes
   * them again as configured.
   */
  refuseSubscriptions(refuse: boolean): void {
    const capabilities = this.server!.engine.serverCapabilities as { maxSubscriptionsPerSession: number };
    this.subscriptionsPerSession ??= capabilities.maxSubscriptionsPerSession;
    capabilities.maxSubscriptionsPerSession = refuse ? 0 : this.subscriptionsPerSession;
  }

  private subscriptionsPerSession: number | undefined;

  private constructor(private readonly options: TestServerOptions) {}

  static async start(options: TestServerOptions): Promise<OpcuaTestServer> {
    const server = new OpcuaTestServer(options);
    await server.open(options.port ?? 0);
    return server;
  }

  get url(): string {
    return `opc.tcp://127.0.0.1:${this.port}`;
  }

  /** The server's certificate (DER). */
  get certificateDer(): Buffer {
    return pemToDer(fs.readFileSync(path.join(this.options.pkiFolder, 'own', 'certs', 'certificate.pem'), 'utf8'));
  }

  set(name: string, value: unknown, options: { dataType?: DataType; status?: StatusCode; sourceTimestamp?: Date; array?: boolean } = {}): void {
    const variable = this.variables.get(name);
    if (!variable) throw new Error(`no test variable ${name}`);
    const spec = (TEST_TAGS as Record<string, { dataType: DataType; array?: boolean }>)[name];
    const dataType = options.dataType ?? spec?.dataType ?? DataType.Double;
    const array = options.array ?? spec?.array ?? false;
    variable.setValueFromSource(new Variant({ dataType, arrayType: array ? VariantArrayType.Array : VariantArrayType.Scalar, value }), options.status ?? StatusCodes.Good, options.sourceTimestamp ?? new Date());
  }

  /**
   * Adds more Double variables ns=2;s=<prefix><i> (benchmark). Each carries its own role
   * permissions (anyone may read) and access restrictions (none): without them node-opcua looks up
   * the namespace's defaults through the address space on every sample, which took most of this server's CPU at 20,000
   * tags a second, on the same 2 cores as the agent it measures (docs/performance.md).
   * `stampedWhenRead`: each sample reads a new value stamped with the moment of the read (no `set`).
   */
  addDoubles(prefix: string, count: number, options: { stampedWhenRead?: boolean } = {}): string[] {
    const namespace = this.server!.engine.addressSpace!.getNamespace('urn:tributary:test')!;
    const folder = namespace.addObject({ organizedBy: this.server!.engine.addressSpace!.rootFolder.objects, browseName: `${prefix}Folder` });
    const ids: string[] = [];
    const readable = PermissionFlag.Browse | PermissionFlag.Read | PermissionFlag.ReadRolePermissions;
    const rolePermissions = [WellKnownRoles.Anonymous, WellKnownRoles.AuthenticatedUser].map((roleId) => ({ roleId, permissions: readable }));
    // `stampedWhenRead`: the machine's scan, started by the first of its tags sampled (see below).
    let scan = new Date(0);
    for (let i = 0; i < count; i += 1) {
      const name = `${prefix}${i}`;
      const variable = namespace.addVariable({ componentOf: folder, nodeId: `s=${name}`, browseName: name, dataType: 'Double', minimumSamplingInterval: 0, rolePermissions, accessRestrictions: AccessRestrictionsFlag.None });
      if (options.stampedWhenRead) {
        // As a server that reads its device when it samples (Kepware's scan, an S7-1500's process
        // image): a new value each time, stamped with the moment of the device read, which the
        // tags of one machine share (those sampled within 100 ms of the first).
        variable.bindVariable(
          {
            timestamped_get: () => {
              const now = Date.now();
              if (now - scan.getTime() >= 100) scan = new Date(now);
              const value = new Variant({ dataType: DataType.Double, value: Math.sin(scan.getTime() / 10_000 + i) * 100 });
              return new DataValue({ value, statusCode: StatusCodes.Good, sourceTimestamp: scan, serverTimestamp: new Date(now) });
            },
          },
          true,
        );
      } else variable.setValueFromSource(new Variant({ dataType: DataType.Double, value: 0 }));
      this.variables.set(name, variable);
      ids.push(`ns=2;s=${name}`);
    }
    return ids;
  }

  /** Trusts a client's application certificate (PEM file), as an administrator would on the server. */
  async trustClient(certificateFile: string): Promise<void> {
    await this.certificates!.trustCertificate(pemToDer(fs.readFileSync(certificateFile, 'utf8')));
  }

  async stop(): Promise<void> {
    // First: a value set while the server shuts down would reach neither a client nor the history.
    this.variables.clear();
    await this.server?.shutdown(0);
    this.server = undefined;
    await this.certificates?.dispose();
    await this.userCertificates?.dispose();
    this.certificates = undefined;
    this.userCertificates = undefined;
    this.variables.clear();
  }

  /** Whether unknown client certificates are trusted automatically from now on. */
  acceptClients(accept: boolean): void {
    this.certificates!.automaticallyAcceptUnknownCertificate = accept;
  }

  /** Shuts down and starts a fresh server on the same port: same certificate, unless a new PKI folder is given. */
  async restart(downMs = 0, pkiFolder?: string): Promise<void> {
    const port = this.port;
    await this.stop();
    if (pkiFolder) this.options.pkiFolder = pkiFolder;
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    await this.open(port);
  }

  private async open(port: number): Promise<void> {
    installOpcuaLogBridge();
    const { secure = false, users = {}, acceptClients = true } = this.options;
    this.certificates = new OPCUACertificateManager({ rootFolder: this.options.pkiFolder, automaticallyAcceptUnknownCertificate: acceptClients });
    await this.certificates.initialize();
    // Without its own user PKI, node-opcua shares ~/.config/node-opcua-default-nodejs between
    // processes; servers initializing it at once on a fresh machine wait on its mutex forever.
    this.userCertificates = new OPCUACertificateManager({ rootFolder: `${this.options.pkiFolder}-users`, automaticallyAcceptUnknownCertificate: false });
    await this.userCertificates.initialize();
    const server = new OPCUAServer({
      port,
      hostname: '127.0.0.1',
      alternateHostname: ['127.0.0.1'],
      serverCertificateManager: this.certificates,
      userCertificateManager: this.userCertificates,
      securityModes: secure ? [MessageSecurityMode.SignAndEncrypt] : [MessageSecurityMode.None, MessageSecurityMode.SignAndEncrypt],
      securityPolicies: secure ? [SecurityPolicy.Basic256Sha256] : [SecurityPolicy.None, SecurityPolicy.Basic256Sha256],
      allowAnonymous: !secure,
      userManager: { isValidUser: (user: string, password: string) => users[user] !== undefined && users[user] === password },
      serverInfo: { applicationName: { text: 'Tributary test server' } },
    });
    await server.initialize();
    server.on('create_session', () => (this.sessionsCreated += 1));
    server.on('session_closed', () => (this.sessionsClosed += 1));
    server.on('request', (request: { schema?: { name?: string } }) => {
      if (request.schema?.name === 'ReadRequest') this.readRequests += 1;
      if (request.schema?.name === 'HistoryReadRequest') this.historyReads += 1;
    });
    const addressSpace = server.engine.addressSpace!;
    const namespace = addressSpace.registerNamespace('urn:tributary:test');
    const plant = namespace.addObject({ organizedBy: addressSpace.rootFolder.objects, browseName: 'Plant', nodeId: 's=Plant' });
    for (const [name, spec] of Object.entries(TEST_TAGS)) {
      const array = 'array' in spec && spec.array;
      const variable = namespace.addVariable({
        componentOf: plant,
        nodeId: `s=${name}`,
        browseName: name,
        dataType: DataType[spec.dataType],
        valueRank: array ? 1 : -1,
        minimumSamplingInterval: 0,
      });
      if (this.options.historize?.includes(name as TestTag)) {
        const kept = this.history.get(name) ?? new KeptHistory(() => this.historyDelayMs);
        this.history.set(name, kept);
        addressSpace.installHistoricalDataNode(variable, { historian: kept });
      }
      // A restarted server with history starts from its last value, as a PLC keeps its counter.
      const last = this.history.get(name)?.last;
      if (last) variable.setValueFromSource(last.value, last.statusCode, last.sourceTimestamp ?? new Date());
      else variable.setValueFromSource(new Variant({ dataType: spec.dataType, arrayType: array ? VariantArrayType.Array : VariantArrayType.Scalar, value: spec.value }), StatusCodes.Good, new Date());
      this.variables.set(name, variable);
    }
    await server.start();
    this.server = server;
    this.port = server.endpoints[0]!.port;
  }
}

/** A historian in memory (node-opcua's IVariableHistorian) that outlives the server instance. */
class KeptHistory {
  private readonly values: DataValue[] = [];

  constructor(private readonly delayMs: () => number) {}

  get last(): DataValue | undefined {
    return this.values[this.values.length - 1];
  }

  async push(dataValue: DataValue): Promise<void> {
    this.values.push(dataValue);
  }

  extractDataValues(details: ReadRawModifiedDetails, max: number, isReversed: boolean, reverse: boolean, callback: (err: Error | null, values?: DataValue[]) => void): void {
    const start = details.startTime?.getTime() ?? 0;
    const end = details.endTime?.getTime() || Number.MAX_SAFE_INTEGER;
    let found = this.values.filter((v) => {
      const t = v.sourceTimestamp?.getTime() ?? 0;
      return t >= start && t <= end;
    });
    if (max > 0) found = isReversed ? found.slice(-max) : found.slice(0, max);
    setTimeout(() => callback(null, reverse ? found.reverse() : found), this.delayMs());
  }
}
