/**
 * The part of the `mssql` package (no bundled types, no @types package installed) that the SQL
 * receiver uses. Shapes follow mssql 12's README and lib/; keep it this narrow.
 */
declare module 'mssql' {
  import type { EventEmitter } from 'node:events';

  export interface ISqlType {
    declaration?: string;
  }
  type TypeFactory = (() => ISqlType) & ISqlType;

  export interface config {
    server: string;
    port?: number;
    user?: string;
    password?: string;
    database?: string;
    connectionTimeout?: number;
    requestTimeout?: number;
    pool?: { max?: number; min?: number; idleTimeoutMillis?: number };
    options?: {
      encrypt?: boolean;
      trustServerCertificate?: boolean;
      instanceName?: string;
      useUTC?: boolean;
      appName?: string;
      abortTransactionOnError?: boolean;
    };
  }

  export class ConnectionPool extends EventEmitter {
    constructor(config: config);
    readonly connected: boolean;
    readonly config: config;
    connect(): Promise<ConnectionPool>;
    close(): Promise<void>;
  }

  export class Request extends EventEmitter {
    constructor(pool: ConnectionPool);
    stream: boolean;
    arrayRowMode: boolean;
    input(name: string, type: ISqlType | (() => ISqlType), value: unknown): Request;
    query(command: string): void;
    cancel(): boolean;
  }

  const sql: {
    ConnectionPool: typeof ConnectionPool;
    Request: typeof Request;
    BigInt: TypeFactory;
    Int: TypeFactory;
    Float: TypeFactory;
    MAX: number;
    NVarChar: (length?: number) => ISqlType;
    DateTime2: (scale?: number) => ISqlType;
    DateTimeOffset: (scale?: number) => ISqlType;
  };
  export default sql;
}
