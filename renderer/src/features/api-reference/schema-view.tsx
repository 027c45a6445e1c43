/**
 * A JSON Schema of the OpenAPI document, read by a person: a one-line type, then the properties of
 * an object (and the choices of a union) one level at a time. A `$ref` is a link to its component
 * further down the page, so a recursive schema (JsonValue) ends there instead of unfolding forever.
 */
import { text } from '../../i18n/language.js';
import type { ReactNode } from 'react';

export type Schema = Record<string, unknown>;

const REF = '#/components/schemas/';

export const componentAnchor = (name: string) => `api-schema-${name}`;

function ComponentLink({ target }: { target: string }) {
  const name = target.startsWith(REF) ? target.slice(REF.length) : target;
  return (
    <a
      href="#/api"
      className="api-ref"
      onClick={(event) => {
        // The address holds the page: scroll to the component instead of following the link.
        event.preventDefault();
        const component = document.getElementById(componentAnchor(name));
        component?.scrollIntoView();
        component?.focus();
      }}
    >
      {name}
    </a>
  );
}

const choicesOf = (schema: Schema) => (schema.anyOf ?? schema.oneOf ?? schema.allOf) as Schema[] | undefined;

/** What a value is, in one line: `integer 1…65535`, `array of Violation`, `"passed" | "failed"`. */
export function TypeLabel({ schema }: { schema: Schema }): ReactNode {
  if (typeof schema.$ref === 'string') return <ComponentLink target={schema.$ref} />;
  if ('const' in schema) return <code>{JSON.stringify(schema.const)}</code>;
  if (Array.isArray(schema.enum)) return <code>{schema.enum.map((value) => JSON.stringify(value)).join(' | ')}</code>;
  const choices = choicesOf(schema);
  if (choices)
    return (
      <>
        {choices.map((choice, i) => (
          <span key={i}>
            {i > 0 && (schema.allOf ? ' & ' : ' | ')}
            <TypeLabel schema={choice} />
          </span>
        ))}
      </>
    );
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any');
  if (type === 'array' && schema.items && typeof schema.items === 'object')
    return (
      <>
        {text('apiReference.arrayOf')}
        <TypeLabel schema={schema.items as Schema} />
      </>
    );
  if (type === 'object' && !schema.properties && typeof schema.additionalProperties === 'object')
    return (
      <>
        {text('apiReference.mapOf')}
        <TypeLabel schema={schema.additionalProperties as Schema} />
      </>
    );
  // zod bounds every integer by the safe range: not worth saying.
  const bound = (value: unknown) => (value === undefined || Math.abs(Number(value)) >= 1e15 ? '' : String(value));
  const lowest = schema.minimum ?? schema.minLength ?? schema.minItems;
  const range = [lowest, schema.maximum ?? schema.maxLength ?? schema.maxItems].map(bound);
  const bounds = range.some(Boolean) ? ` ${range.join('…')}` : '';
  return <>{`${type}${bounds}${schema.format ? ` (${String(schema.format)})` : ''}`}</>;
}

/** The schema's type and description, then its properties and the objects among its choices. */
export function SchemaView({ schema }: { schema: Schema }) {
  // An array of objects (or of a choice of objects) shows the fields of its items.
  const ofItems = hasMore(schema) && !schema.properties && !choicesOf(schema) && schema.items;
  const inner = ofItems ? (schema.items as Schema) : schema;
  const properties = (inner.properties ?? {}) as Record<string, Schema>;
  const required = new Set((inner.required ?? []) as string[]);
  const objectChoices = (choicesOf(inner) ?? []).filter((choice) => choice.properties);
  return (
    <div className="api-schema">
      <div>
        <TypeLabel schema={schema} />
        {typeof schema.description === 'string' && <span className="muted"> — {schema.description}</span>}
      </div>
      {Object.keys(properties).length > 0 && (
        <ul className="api-properties">
          {Object.entries(properties).map(([name, property]) => (
            <li key={name}>
              <code>{name}</code>
              {required.has(name) ? '' : <span className="muted">{text('apiReference.optional')}</span>}: <TypeLabel schema={property} />
              {typeof property.description === 'string' && <span className="muted"> — {property.description}</span>}
              {hasMore(property) && (
                <details>
                  <summary>{text('apiReference.fields')}</summary>
                  <SchemaView schema={property} />
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
      {objectChoices.map((choice, i) => (
        <details key={i}>
          <summary>{choiceName(choice, i)}</summary>
          <SchemaView schema={choice} />
        </details>
      ))}
    </div>
  );
}

/** `protocol "localfile"` when a property of the choice is a constant (how its readers tell them apart). */
function choiceName(choice: Schema, index: number): string {
  const properties = Object.entries((choice.properties ?? {}) as Record<string, Schema>);
  const constant = properties.find(([, property]) => 'const' in property);
  return constant ? `${constant[0]} ${JSON.stringify(constant[1].const)}` : `choice ${index + 1}`;
}

/** An inline object (or array of objects, or union with objects) whose fields are worth unfolding. */
function hasMore(schema: Schema): boolean {
  if (schema.properties) return true;
  const items = schema.type === 'array' && typeof schema.items === 'object' ? schema.items : null;
  if (items) return hasMore(items as Schema);
  return (choicesOf(schema) ?? []).some((choice) => choice.properties);
}
