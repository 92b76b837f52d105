/** Inline CSS of report.html: system fonts only, nothing fetched. */
export const styles = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Arial, "DejaVu Sans", sans-serif; margin: 0 auto; max-width: 1400px; padding: 1rem 2rem; color: #222; }
h1 { font-size: 1.4rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #ccc; } h2 small, h4 small { color: #666; font-weight: normal; font-size: .8em; }
.notice { background: #fff4e5; border: 1px solid #f0a020; padding: .6rem .8rem; border-radius: 4px; }
.meta, .muted { color: #555; } .gap { color: #8a5a00; } .err { color: #b00020; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: 13px; } th, td { border: 1px solid #ddd; padding: .25rem .5rem; vertical-align: top; }
th { background: #f5f5f5; text-align: left; } .num { text-align: right; font-variant-numeric: tabular-nums; }
.verdict-better { color: #2e7d32; font-weight: bold; } .verdict-worse { color: #c62828; font-weight: bold; } .verdict-within-noise { color: #555; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5rem; } figure { margin: 0; } figcaption { font-weight: 600; margin-bottom: .3rem; }
details.case { border: 1px solid #ddd; border-radius: 4px; margin: .3rem 0; padding: .2rem .5rem; } details.case > summary { cursor: pointer; }
.glance { color: #555; font-size: 12px; } .arms { display: grid; gap: 1rem; padding: .5rem 0; }
.arm table, .arm pre { max-width: 100%; } .arm table { display: block; overflow-x: auto; } main > section > table, .suite > table { display: block; max-width: 100%; overflow-x: auto; }
.arm { min-width: 0; border-left: 3px solid #4c78a8; padding-left: .6rem; } .arm h4 { margin: .2rem 0; }
pre { white-space: pre-wrap; word-break: break-word; overflow-wrap: anywhere; background: #fafafa; border: 1px solid #eee; padding: .4rem; max-height: 24rem; overflow: auto; font-size: 12px; }
h5 { margin: .6rem 0 .2rem; } .judge { margin: .3rem 0; } .rationale { color: #333; font-style: italic; } .evidence { margin: .1rem 0; font-size: 12px; }
.mark-kept { background: #e8f5e9; } .mark-overstated { background: #ffebee; font-weight: bold; } .mark-absent { color: #888; }
`;
