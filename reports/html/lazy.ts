import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync, strToU8, strFromU8 } from 'fflate';

/**
 * report.html stays one self-contained file, but a case's cells (what the receiver saw, the answer, the
 * judge's reasoning: most of the bytes) are stored gzip-compressed and base64-encoded in the case's
 * `data-z` attribute and rendered only when the case is opened. The stored text is HTML already escaped
 * by html`` (reports/html/escape.ts), so inserting it adds no markup a run could have chosen.
 * The loader is the page's only script, allowed by its hash in the CSP; it decompresses with the
 * browser's own DecompressionStream (no library shipped in the page), and follows `#case:…` and
 * `#cell:…` anchors by opening the case first.
 */
export function packCase(htmlText: string): string {
  return Buffer.from(gzipSync(strToU8(htmlText), { level: 6, mtime: 0 })).toString('base64');
}

/** The inverse of packCase, for tests and tools that read a report without a browser. */
export function unpackCase(data: string): string {
  return strFromU8(gunzipSync(new Uint8Array(Buffer.from(data, 'base64'))));
}

/** Every case body of a report, unpacked in page order (tests read the drill-down through this). */
export function unpackAll(page: string): string[] {
  return [...page.matchAll(/ data-z="([A-Za-z0-9+/=]*)"/g)].map((m) => unpackCase(m[1]!));
}

export const loaderScript = `(() => {
  const inflate = async (el) => {
    const z = el.getAttribute('data-z');
    if (!z) return;
    el.removeAttribute('data-z');
    const bin = atob(z);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    el.querySelector(':scope > .lazy').innerHTML = await new Response(stream).text();
    el.setAttribute('data-loaded', '');
  };
  document.addEventListener('toggle', (e) => {
    const d = e.target;
    if (d instanceof HTMLDetailsElement && d.open && d.classList.contains('case')) inflate(d);
  }, true);
  const follow = async () => {
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    let target = document.getElementById(id);
    if (!target && id.startsWith('cell:')) {
      const parts = id.slice(5).split('/');
      for (let k = parts.length - 1; k > 0 && !target; k--) {
        const c = document.getElementById('case:' + parts.slice(0, k).join('/'));
        if (c) { c.open = true; await inflate(c); target = document.getElementById(id); }
      }
    }
    if (!target) return;
    for (let p = target; p; p = p.parentElement) if (p instanceof HTMLDetailsElement) { p.open = true; if (p.classList.contains('case')) await inflate(p); }
    target.scrollIntoView();
  };
  addEventListener('hashchange', follow);
  follow();
})();`;

export const loaderHash = `'sha256-${createHash('sha256').update(loaderScript).digest('base64')}'`;
