/**
 * Machine and field names of a KPI against the data this agent has actually seen (the records it
 * keeps for evaluation): a misspelt machine or raw field name is a KPI that silently shows "no data",
 * so it is named with a did-you-mean. Warnings, not errors: a KPI may be written before its machine
 * sends anything (docs/decisions/0050).
 */
import { closest, warning, type JsonPath, type Violation, say } from '../config/violations.js';
import type { AliasEntry, KpiDefinition } from './schema.js';

/** What the agent's kept records hold: each machine (asset) and the field names its records carry. */
export interface KnownKpiData {
  machines: Readonly<Record<string, readonly string[]>>;
}

/** At most this many names are listed in a message. */
const LISTED = 8;

function listing(names: readonly string[]): string {
  const shown = names.slice(0, LISTED).join(', ');
  // Language-neutral, as it travels as a message param: "a, b, c, … (+4)".
  return names.length > LISTED ? `${shown}, … (+${names.length - LISTED})` : shown;
}

function unknownMachine(machine: string, path: JsonPath, machines: readonly string[]): Violation {
  const hint = closest(machine, machines);
  return warning(
    path,
    hint
      ? say('kpi.machine_not_kept_hint', 'No records of machine "{machine}" are kept on this agent, so the KPI has no data for it. Did you mean "{hint}"?', { machine, hint })
      : say('kpi.machine_not_kept', 'No records of machine "{machine}" are kept on this agent, so the KPI has no data for it. Machines with records here: {machines}.', { machine, machines: listing(machines) }),
  );
}

function unknownField(field: string, path: JsonPath, fields: readonly string[], machine: string | undefined): Violation {
  const hint = closest(field, fields);
  if (machine === undefined)
    return warning(
      path,
      hint
        ? say('kpi.field_not_kept_hint', 'No record kept on this agent has a field "{field}", so this dependency has no values. Did you mean "{hint}"?', { field, hint })
        : say('kpi.field_not_kept', 'No record kept on this agent has a field "{field}", so this dependency has no values. Fields seen: {fields}.', { field, fields: listing(fields) }),
    );
  return warning(
    path,
    hint
      ? say('kpi.machine_field_not_kept_hint', 'No record of machine "{machine}" kept on this agent has a field "{field}", so this dependency has no values. Did you mean "{hint}"?', { machine, field, hint })
      : say('kpi.machine_field_not_kept', 'No record of machine "{machine}" kept on this agent has a field "{field}", so this dependency has no values. Fields seen: {fields}.', { machine, field, fields: listing(fields) }),
  );
}

/** Warnings for machine and raw field names the kept records never carried; none when nothing is kept. */
export function knownNameRules(definition: KpiDefinition, known: KnownKpiData | undefined): Violation[] {
  const machines = Object.keys(known?.machines ?? {}).sort();
  if (!known || machines.length === 0) return [];
  const allFields = [...new Set(Object.values(known.machines).flat())].sort();
  const out: Violation[] = [];
  definition.field_maps.forEach((fieldMap, j) => {
    for (const [key, entry] of Object.entries(fieldMap.alias_map as Record<string, AliasEntry>)) {
      const at: JsonPath = ['field_maps', j, 'alias_map', key];
      const ownFields = entry.machine !== undefined && Object.hasOwn(known.machines, entry.machine) ? known.machines[entry.machine] : undefined;
      if (entry.machine !== undefined && !ownFields) out.push(unknownMachine(entry.machine, [...at, 'machine'], machines));
      // A machine we know: its own fields; otherwise any machine's (machine-type KPIs apply to all).
      const fields = ownFields ? [...ownFields].sort() : allFields;
      const machine = ownFields ? entry.machine : undefined;
      if (fields.length === 0) continue;
      if (!fields.includes(entry.name)) out.push(unknownField(entry.name, [...at, 'name'], fields, machine));
      entry.row_conditions?.cases.forEach((rowCase, k) => {
        if (!fields.includes(rowCase.name)) out.push(unknownField(rowCase.name, [...at, 'row_conditions', 'cases', k, 'name'], fields, machine));
      });
    }
  });
  const rollups = (definition as { rollups?: { factory?: Record<string, string[]>; line?: Record<string, string[]> } }).rollups;
  for (const group of ['factory', 'line'] as const)
    for (const [name, members] of Object.entries(rollups?.[group] ?? {}))
      if (Array.isArray(members))
        members.forEach((machine, m) => {
          if (typeof machine === 'string' && !Object.hasOwn(known.machines, machine)) out.push(unknownMachine(machine, ['rollups', group, name, m], machines));
        });
  return out;
}
