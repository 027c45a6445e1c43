/**
 * pandas dtype names and the kind of value each gives: what the configuration's rules check
 * (csv-options.ts re-exports it) and what the parse threads read cells by, without the schemas.
 */

/** dtype names pandas users write, by the kind of value they give. */
export const DTYPE_NAMES = {
  str: ['str', 'string', 'object', 'unicode'],
  int: ['int', 'int8', 'int16', 'int32', 'int64', 'Int8', 'Int16', 'Int32', 'Int64', 'uint8', 'uint16', 'uint32', 'uint64', 'UInt8', 'UInt16', 'UInt32', 'UInt64'],
  float: ['float', 'float16', 'float32', 'float64', 'Float32', 'Float64', 'double'],
  bool: ['bool', 'boolean'],
} as const;
export type DtypeKind = keyof typeof DTYPE_NAMES;

/** The kind of a dtype name, or undefined for one Tributary cannot give (category, datetime64, …). */
export function dtypeKind(name: string): DtypeKind | undefined {
  return (Object.keys(DTYPE_NAMES) as DtypeKind[]).find((kind) => (DTYPE_NAMES[kind] as readonly string[]).includes(name));
}
