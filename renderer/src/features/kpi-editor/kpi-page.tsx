/** Placeholder until the KPI issue: says what will live here. */
export function KpiPage() {
  return (
    <section className="page" aria-labelledby="kpi-title">
      <div className="page-head">
        <h1 id="kpi-title">KPIs</h1>
      </div>
      <div className="card">
        <p>KPI definitions (machine-type and line KPIs) will be written, validated and tried out here.</p>
        <p className="muted">This page comes with the KPI feature.</p>
      </div>
    </section>
  );
}
