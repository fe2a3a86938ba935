/// The report's style sheet: light and dark (prefers-color-scheme), one column on a phone,
/// wider tiles and charts on a desktop; no web fonts, no external assets.
enum HTMLStyle {
    static let css = """
    :root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#1b1f24;--muted:#5c6673;--line:#dfe3e8;--grid:#e6e9ee;
    --accent:#e8590c;--pace:#e8590c;--speed:#1c7ed6;--elev:#2f9e44;--elev-fill:rgba(47,158,68,.18);
    --band-run:rgba(232,89,12,.13);--band-walk:rgba(16,152,173,.12);--band-easy:rgba(120,126,140,.10);
    --run:#e8590c;--walk:#1098ad;--easy:#868e96;--map-bg:#eef1f4;--casing:#fff;--best:#2b8a3e;--finish:#1b1f24;--finish-text:#fff;
    --target:rgba(43,138,62,.17)}
    @media (prefers-color-scheme:dark){:root{--bg:#0f1216;--card:#181c22;--text:#e7eaef;--muted:#9aa4b2;--line:#2b323c;--grid:#2a313b;
    --accent:#ff922b;--pace:#ff922b;--speed:#4dabf7;--elev:#51cf66;--elev-fill:rgba(81,207,102,.16);
    --band-run:rgba(255,146,43,.16);--band-walk:rgba(34,184,207,.15);--band-easy:rgba(160,166,180,.10);
    --run:#ff922b;--walk:#22b8cf;--easy:#868e96;--map-bg:#12161b;--casing:#0f1216;--best:#69db7c;--finish:#f1f3f5;--finish-text:#111;
    --target:rgba(105,219,124,.16)}}
    *{box-sizing:border-box}
    body{margin:0;background:var(--bg);color:var(--text);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;
    font-variant-numeric:tabular-nums;-webkit-text-size-adjust:100%}
    main{max-width:980px;margin:0 auto;padding:16px 14px 40px}
    header{padding:8px 2px 14px}
    .eyebrow{margin:0;color:var(--accent);font-weight:700;letter-spacing:.08em;text-transform:uppercase;font-size:.78rem}
    h1{margin:.15em 0 .2em;font-size:clamp(1.35rem,4.5vw,2rem);line-height:1.2;overflow-wrap:anywhere}
    .meta{margin:0;color:var(--muted);font-size:.95rem}
    .badge{display:inline-block;padding:.05em .6em;border-radius:999px;font-size:.8rem;font-weight:600;margin-left:.4em;
    background:var(--band-run);color:var(--text)}
    .badge.completed{background:rgba(47,158,68,.18)}
    .badge.interrupted,.badge.incomplete{background:rgba(224,49,49,.16)}
    section{background:var(--card);border:1px solid var(--line);border-radius:14px;padding:14px 14px 12px;margin:0 0 14px}
    h2{margin:0 0 10px;font-size:1.05rem}
    .tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px;background:none;border:0;padding:0}
    .tile{background:var(--card);border:1px solid var(--line);border-radius:14px;padding:10px 12px}
    .tile .label{display:block;color:var(--muted);font-size:.78rem;text-transform:uppercase;letter-spacing:.05em}
    .tile .value{display:block;font-size:1.6rem;font-weight:700;line-height:1.2}
    .tile .value small{font-size:.9rem;font-weight:500;color:var(--muted)}
    .tile.primary .value{color:var(--accent)}
    .chart{margin:0 0 12px}.chart:last-child{margin-bottom:0}
    figcaption{margin:0 0 6px}.chart-title{font-weight:650}.chart-unit{color:var(--muted);font-size:.85rem}
    .chart-grid{display:grid;grid-template-columns:3.1em 1fr;grid-template-rows:auto auto}
    .y-axis{position:relative}.y-axis span{position:absolute;right:6px;transform:translateY(-50%);font-size:.75rem;color:var(--muted);white-space:nowrap}
    .plot{position:relative;height:190px;border-left:1px solid var(--line);border-bottom:1px solid var(--line);overflow:hidden}
    .chart-elevation .plot{height:130px}
    .plot-svg{position:absolute;inset:0;width:100%;height:100%;display:block}
    .band{stroke:none}.band-run{fill:var(--band-run)}.band-walk{fill:var(--band-walk)}.band-easy{fill:var(--band-easy)}
    .target-band{fill:var(--target);stroke:none}
    .target-edge{stroke:var(--best);stroke-width:1.2;stroke-dasharray:5 4;vector-effect:non-scaling-stroke}
    .grid{stroke:var(--grid);stroke-width:1;vector-effect:non-scaling-stroke}
    .series{fill:none;stroke-width:2.2;stroke-linejoin:round;stroke-linecap:round;vector-effect:non-scaling-stroke}
    .series.pace{stroke:var(--pace)}.series.speed{stroke:var(--speed)}.series.elevation{stroke:var(--elev)}.series.heart{stroke:#d6336c}
    .area{stroke:none}.area.elevation{fill:var(--elev-fill)}
    .band-label{position:absolute;top:3px;text-align:center;font-size:.7rem;font-weight:600;color:var(--muted);overflow:visible;white-space:nowrap;pointer-events:none}
    .band-label .short{display:none}
    .plot-svg .gap{fill:rgba(214,40,40,.16);stroke:none}.gap-label{position:absolute;bottom:3px;padding-left:3px;font-size:.68rem;font-weight:700;color:#c62828;white-space:nowrap;pointer-events:none}
    .gap-line line{stroke:#c62828;stroke-width:2.5;stroke-dasharray:6 5;vector-effect:non-scaling-stroke}.gap-line text{fill:#c62828;font-weight:700;text-anchor:middle;font-family:system-ui,sans-serif}
    .x-axis{position:relative;height:1.4em}.x-axis span{position:absolute;top:2px;transform:translateX(-50%);font-size:.75rem;color:var(--muted)}
    .x-axis span:first-child{transform:none}
    .legend{display:flex;flex-wrap:wrap;align-items:center;gap:4px 10px;font-size:.8rem;color:var(--muted);margin-top:8px}
    .legend-item{display:inline-flex;align-items:center;gap:5px}
    .chip,.swatch,.dot{display:inline-block;width:12px;height:12px;border-radius:3px;vertical-align:-1px;margin-right:6px}
    .swatch{width:18px;height:8px;margin:0 -8px 0 0;border-radius:0}
    .dot{border-radius:50%;margin:0}
    .chip-run{background:var(--run)}.chip-walk{background:var(--walk)}.chip-warmup,.chip-cooldown{background:var(--easy)}
    .key-run{background:var(--band-run);border:1px solid var(--run)}.key-walk{background:var(--band-walk);border:1px solid var(--walk)}
    .key-easy{background:var(--band-easy);border:1px solid var(--easy)}.key-target{background:var(--target);border:1px dashed var(--best)}
    .map{margin:0}.route{display:block;width:100%;height:auto;max-height:min(75vh,620px);border-radius:10px}
    .map-bg{fill:var(--map-bg)}
    .track-casing polyline{fill:none;stroke:var(--casing);stroke-width:7;stroke-linejoin:round;stroke-linecap:round;vector-effect:non-scaling-stroke}
    .track-line polyline{fill:none;stroke-width:4;stroke-linejoin:round;stroke-linecap:round;vector-effect:non-scaling-stroke}
    .pace0{stroke:#b2182b;background:#b2182b}.pace1{stroke:#e34a33;background:#e34a33}.pace2{stroke:#f08c00;background:#f08c00}
    .pace3{stroke:#d4a800;background:#d4a800}.pace4{stroke:#66a80f;background:#66a80f}.pace5{stroke:#1098ad;background:#1098ad}
    .pace6{stroke:#1864ab;background:#1864ab}.pace-none{stroke:#868e96}
    .start-marker circle,.start-dot{fill:#2b8a3e;background:#2b8a3e}.finish-marker circle,.finish-dot{fill:var(--finish);background:var(--finish)}
    .km-marker circle,.km-dot{fill:#fff;stroke:#1b1f24;stroke-width:1.5;vector-effect:non-scaling-stroke;background:#fff;border:1.5px solid #1b1f24}
    .finish-marker text{fill:var(--finish-text)}.start-marker text{fill:#fff}.start-marker text,.finish-marker text{font-weight:700;text-anchor:middle;font-family:system-ui,sans-serif}
    .km-marker text{fill:#1b1f24;font-weight:700;text-anchor:middle;font-family:system-ui,sans-serif}
    .scale line{stroke:var(--text);stroke-width:2;vector-effect:non-scaling-stroke}.scale text,.north text{fill:var(--text);text-anchor:middle;font-family:system-ui,sans-serif}
    .table-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch}
    table{border-collapse:collapse;width:100%;font-size:.92rem}
    th,td{padding:6px 8px;text-align:right;white-space:nowrap;border-bottom:1px solid var(--line)}
    th{color:var(--muted);font-weight:600;font-size:.78rem;text-transform:uppercase;letter-spacing:.04em}
    .text{text-align:left}tbody tr:last-child td{border-bottom:0}
    .row-run td{background:color-mix(in srgb,var(--band-run) 60%,transparent)}
    .intervals.wide th,.intervals.wide td{padding:6px 5px}.gap-table td.text{white-space:normal}
    .diff{color:var(--muted)}.even{color:var(--best)}
    .flag{display:inline-block;font-size:.7rem;padding:0 .45em;border-radius:999px;background:var(--band-easy);color:var(--muted);font-weight:600}
    .best-flag{background:rgba(47,158,68,.18);color:var(--best)}
    .bar-col{width:35%;min-width:80px}.bar{display:block;height:10px;border-radius:5px;background:var(--accent);opacity:.75}
    .best .bar{background:var(--best);opacity:1}
    .sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
    .empty{color:var(--muted);margin:0}
    footer{color:var(--muted);font-size:.8rem;text-align:center;margin-top:18px}
    @media (min-width:760px){main{padding:28px 24px 48px}.plot{height:230px}.chart-elevation .plot{height:150px}
    .two{display:grid;grid-template-columns:1fr 1fr;gap:14px}.two section{margin:0}}
    @media (max-width:520px){main{padding:12px 8px 32px}section{padding:12px 10px 10px}.x-axis .minor{display:none}.intervals th:first-child,.intervals td:first-child{display:none}table{font-size:.82rem}th{font-size:.68rem;letter-spacing:0}.chip{margin-right:4px}.band-label .long{display:none}.band-label .short{display:inline}.plot{height:170px}
    .tile .value{font-size:1.35rem}th,td{padding:5px 4px}
    .stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
    .stack,.stack tbody{display:block}
    .stack tr{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:2px 8px;padding:6px 4px;border-bottom:1px solid var(--line)}
    .stack tbody tr:last-child{border-bottom:0}
    .stack td,.intervals.stack td{display:block;padding:0;border:0;text-align:left;white-space:normal;overflow-wrap:anywhere;background:none}
    .stack td.text{grid-column:1/-1}.stack td.text:not([data-label]){font-weight:600}
    .stack td[data-label]::before{content:attr(data-label);display:block;color:var(--muted);font-size:.64rem;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
    .stack td:empty,.stack td.absent,.intervals.stack td:first-child{display:none}
    .intervals.stack tr.row-run{background:color-mix(in srgb,var(--band-run) 60%,transparent)}}
    """
}
