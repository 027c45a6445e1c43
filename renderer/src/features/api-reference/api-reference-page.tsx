/**
 * The API reference: the agent's own OpenAPI document (GET /v1/openapi.json) rendered in the
 * console, so it works offline and over IPC in the desktop app, with no viewer library to ship
 * (docs/decisions/0036). Grouped by resource; every schema of the document is listed at the end.
 */
import { text } from '../../i18n/language.js';
import { useMemo } from 'react';
import { useOpenApi } from '../../api/index.js';
import { ErrorNotice } from '../../components/error-notice.js';
import { type Schema, SchemaView, componentAnchor } from './schema-view.js';
import './api-reference.css';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: Schema;
}

interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  deprecated?: boolean;
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}

interface Document {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
  components: { schemas: Record<string, Schema> };
}

/** `/v1/config/templates/{protocol}` → `config`: one section per resource. */
const resourceOf = (path: string) => path.split('/')[2]?.replace(/\.json$/, '') ?? path;

export function ApiReferencePage() {
  const query = useOpenApi();
  const document = query.data as Document | undefined;
  const groups = useMemo(() => {
    const byResource = new Map<string, Operation[]>();
    for (const [path, methods] of Object.entries(document?.paths ?? {}))
      for (const [method, operation] of Object.entries(methods)) {
        const resource = resourceOf(path);
        byResource.set(resource, [...(byResource.get(resource) ?? []), { ...operation, method, path }]);
      }
    return [...byResource];
  }, [document]);

  const download = () => {
    const url = URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }));
    const link = Object.assign(window.document.createElement('a'), { href: url, download: 'tributary-openapi.json' });
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <section className="page api-reference" aria-labelledby="api-title">
      <div className="page-head">
        <h1 id="api-title">{text('pages.api')}</h1>
        <div className="toolbar">
          <button type="button" className="button" disabled={!document} onClick={download}>
            {text('apiReference.download')}
          </button>
        </div>
      </div>
      {query.isError && <ErrorNotice title={text('apiReference.unloadable')} error={query.error} />}
      {!document && !query.isError && <p className="muted">{text('apiReference.loading')}</p>}
      {document && (
        <>
          <p>
            {document.info.title} {document.info.version}. {document.info.description}{' '}
            {text.rich('apiReference.served', { code: () => <code>GET /v1/openapi.json</code> })}
          </p>
          {groups.map(([resource, operations]) => (
            <section key={resource} className="card api-group" aria-label={text('apiReference.endpoints', { resource })}>
              <h2>{resource}</h2>
              {operations.map((operation) => (
                <OperationView key={`${operation.method} ${operation.path}`} operation={operation} />
              ))}
            </section>
          ))}
          <section className="card api-group" aria-labelledby="api-schemas">
            <h2 id="api-schemas">{text('apiReference.schemas')}</h2>
            {Object.entries(document.components.schemas).map(([name, schema]) => (
              <div key={name} id={componentAnchor(name)} tabIndex={-1} className="api-component">
                <h3>{name}</h3>
                <SchemaView schema={schema} />
              </div>
            ))}
          </section>
        </>
      )}
    </section>
  );
}

const answer = (response: Operation['responses'][string]) => response.content?.['application/json']?.schema;

function OperationView({ operation }: { operation: Operation }) {
  const body = operation.requestBody?.content['application/json']?.schema;
  return (
    <details className="api-operation" data-operation={operation.operationId}>
      <summary>
        <span className={`api-method api-method-${operation.method}`}>{operation.method.toUpperCase()}</span>{' '}
        <code>{operation.path}</code>{' '}
        <span>{operation.summary}</span>
        {operation.deprecated && <span className="pill pill-quiet">{text('apiReference.deprecated')}</span>}
      </summary>
      {operation.description && <p>{operation.description}</p>}
      {operation.parameters.length > 0 && (
        <table className="table compact" aria-label={text('apiReference.parametersOf', { operation: operation.operationId })}>
          <thead>
            <tr>
              <th>{text('apiReference.parameter')}</th>
              <th>{text('apiReference.in')}</th>
              <th>{text('apiReference.meaning')}</th>
            </tr>
          </thead>
          <tbody>
            {operation.parameters.map((parameter) => (
              <tr key={`${parameter.in} ${parameter.name}`}>
                <td>
                  <code>{parameter.name}</code>
                  {parameter.required ? '' : <span className="muted">{text('apiReference.optional')}</span>}
                </td>
                <td>{parameter.in}</td>
                <td>
                  <SchemaView schema={{ ...parameter.schema, description: parameter.description }} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {body && (
        <>
          <h4>{text('apiReference.body')}</h4>
          <SchemaView schema={body} />
        </>
      )}
      {Object.entries(operation.responses).map(([status, response]) => (
        <div key={status}>
          <h4>
            {text('apiReference.response', { status: status === 'default' ? '' : status })} <span className="muted">{response.description}</span>
          </h4>
          {answer(response) && <SchemaView schema={answer(response)!} />}
        </div>
      ))}
    </details>
  );
}
