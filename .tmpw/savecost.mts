import { captureState } from '/work/wt/stop/kernels/state-image.js';
import { warmEngines } from '/work/wt/stop/bench/lib/warm-engines.js';
import { deflateRawSync } from 'node:zlib';
import { Packr } from 'msgpackr';
const packr = new Packr({ moreTypes: true, useRecords: false });
const w = warmEngines(10, 72, Date.parse('2026-03-02T12:00:00Z'));
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (let rep = 0; rep < 3; rep++) {
let t = cpu(); let pub = 0; for (const { engine } of w) { engine.publish(0); } pub = cpu() - t;
t = cpu(); const trees = w.map(({ engine }) => (engine as any).stateTree()); const treeMs = cpu() - t;

t = cpu(); const imgs = trees.map((tr) => captureState(tr, true)); const capMs = cpu() - t;
t = cpu(); const packed = imgs.map((i) => packr.pack({ image: { tree: i } })); const packMs = cpu() - t;
t = cpu(); let l1=0; for (const p of packed) l1 += deflateRawSync(p, { level: 1 }).length; const d1 = cpu() - t;
t = cpu(); let l0=0; for (const p of packed) l0 += deflateRawSync(p, { level: 0 }).length; const d0 = cpu() - t;
t = cpu(); let s=0; for (const { engine } of w) s += engine.saveState()!.length; const save = cpu() - t;
console.log({ pub, treeMs, capMs, packMs, d1, d0, save, packedKB: packed.reduce((a, p) => a + p.length, 0) / 1024 / 10, l1KB: l1 / 1024 / 10 });
}
