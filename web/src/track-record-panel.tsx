// The Signals page's "Track record" panel: each grade's hit rate and expectancy with their 95 %
// intervals, drawn against the random-direction baseline on the same bars, its edge over that
// baseline, the information coefficient, whether the letters are in order and how many groups
// were compared (docs/signals.md "Track record statistics").
import * as f from './format.js';
import { IntervalBar, ScaleAxis } from './interval-bar.js';
import { scaleOf, type Scale } from './interval-scale.js';
import {
  comparisonsNote, gradeRows, interval, lettersInOrder, noOutcomes, percent, signedR, tooFew,
  type GradeRow, type Performance,
} from './track-record.js';

/** Green or red when the edge survived the correction, else neutral: colour means something. */
function tone(row: GradeRow): string {
  if (row.edgeSignificant !== true || row.edgeR === null || row.edgeR === undefined) return '';
  return row.edgeR > 0 ? 'up' : 'down';
}

/** Coloured only when its interval excludes 0. */
function icTone(ic: Performance['informationCoefficient']): string {
  if (ic?.low === null || ic?.low === undefined || ic.high === null) return '';
  return ic.low > 0 ? 'up' : ic.high < 0 ? 'down' : '';
}

function barLabel(row: GradeRow): string {
  return `${row.grade}: expectancy ${signedR(row.expectancyR)} R, 95 % interval ` +
    `${interval(row.expectancyRLow, row.expectancyRHigh, signedR)} R, random baseline ` +
    `${signedR(row.baselineRandomR)} R`;
}

function Row(props: { row: GradeRow; scale: Scale; min: number }) {
  const { row, scale } = props;
  const head = <>
    <th scope="row" class="grade">{row.grade}</th>
    <td class="num">{f.num(row.evaluated, 0)}{(row.evaluated ?? 0) < row.count &&
      <span class="muted"> of {f.num(row.count, 0)}</span>}</td>
  </>;
  if (!row.enough) {
    return <tr class="too-few" data-grade={row.grade}>{head}
      <td colSpan={10} class="muted">{tooFew(row, props.min)}</td></tr>;
  }
  const significant = row.edgeSignificant === null || row.edgeSignificant === undefined ? '—'
    : row.edgeSignificant ? 'yes' : 'no';
  return (
    <tr data-grade={row.grade}>{head}
      <td class={`num ${f.signClass(row.expectancyR)}`}>{signedR(row.expectancyR)}</td>
      <td class="num ci">{interval(row.expectancyRLow, row.expectancyRHigh, signedR)}</td>
      <td class="bar-cell"><IntervalBar scale={scale} value={row.expectancyR}
        low={row.expectancyRLow} high={row.expectancyRHigh} reference={row.baselineRandomR}
        tone={tone(row)} label={barLabel(row)} /></td>
      <td class="num">{percent(row.hitRate)}</td>
      <td class="num ci">{interval(row.hitRateLow, row.hitRateHigh, percent)}</td>
      <td class="num">{signedR(row.baselineRandomR)}</td>
      <td class="num">{signedR(row.baselineTrendR)}</td>
      <td class={`num ${tone(row)}`}>{signedR(row.edgeR)}</td>
      <td class="num ci">{interval(row.edgeRLow, row.edgeRHigh, signedR)}</td>
      <td class={`num ${tone(row)}`}>{significant}</td>
    </tr>
  );
}

function Summary(props: { answer: Performance }) {
  const ic = props.answer.informationCoefficient;
  const order = lettersInOrder(props.answer.calibration);
  return (
    <dl class="figures track-figures">
      <div><dt>Letters in order (A+ best)</dt>
        <dd class={f.signClass(order.sign)} data-order>{order.text}</dd></div>
      <div><dt>Information coefficient (Spearman, score vs 4 h move)</dt>
        <dd data-ic><span class={icTone(ic)}>{signedR(ic?.rho)}</span>{' '}
          <span class="ci">{interval(ic?.low, ic?.high, signedR)}</span>{' '}
          <span class="muted">n = {f.num(ic?.n ?? 0, 0)}</span></dd></div>
    </dl>
  );
}

export function TrackRecordPanel(props: { answer: Performance }) {
  const { answer } = props;
  if (noOutcomes(answer)) {
    const waiting = answer.groups.reduce((sum, g) => sum + g.count, 0);
    return <p class="status empty">No outcomes yet: a signal's outcome is known 4 hours after
      it{waiting > 0 ? `, and ${f.num(waiting, 0)} signals of the last 30 days are waiting` : ''}.
    </p>;
  }
  const rows = gradeRows(answer);
  const min = answer.calibration?.evaluatedMin ?? 30;
  const read = rows.filter((r) => r.enough);
  const scale = scaleOf(read.flatMap((r) => [r.expectancyRLow ?? r.expectancyR,
    r.expectancyRHigh ?? r.expectancyR, r.baselineRandomR]));
  const few = rows.filter((r) => !r.enough).map((r) => r.grade);
  return (
    <div class="track">
      <Summary answer={answer} />
      {/* Focusable: on a phone the table scrolls sideways, and keys must reach that too. */}
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Calibration by grade">
        <table class="track-table">
        <caption class="sr-only">Calibration by grade, 30 days, with 95 % intervals</caption>
        <thead>
          <tr><td colSpan={2} class="corner" />
            <th scope="colgroup" colSpan={3} class="group">Expectancy (R)</th>
            <th scope="colgroup" colSpan={2} class="group">Hit rate (%)</th>
            <th scope="colgroup" colSpan={2} class="group">Baseline (R)</th>
            <th scope="colgroup" colSpan={3} class="group">Edge over random (R)</th></tr>
          <tr><th scope="col">Grade</th><th scope="col" class="num">Evaluated</th>
            <th scope="col" class="num">Mean</th><th scope="col" class="num">95 %</th>
            <th scope="col" class="bar-cell"><span class="sr-only">Interval against baseline
            </span><ScaleAxis scale={scale} format={signedR} /></th>
            <th scope="col" class="num">t1 first</th><th scope="col" class="num">95 %</th>
            <th scope="col" class="num">Random</th><th scope="col" class="num">Trend</th>
            <th scope="col" class="num">Mean</th><th scope="col" class="num">95 %</th>
            <th scope="col" class="num">Significant</th></tr>
        </thead>
        <tbody>{rows.map((row) => <Row row={row} scale={scale} min={min} />)}</tbody>
      </table></div>
      <p class="hint track-legend"><span class="key-dot" aria-hidden="true" /> mean,
        <span class="key-range" aria-hidden="true" /> its 95 % interval,
        <span class="key-ref" aria-hidden="true" /> random-direction baseline on the same bars.
        Significant: the edge survives the correction below.
        {few.length > 0 ? ` ${few.join(', ')}: fewer than ${min} outcomes, not compared.` : ''}
      </p>
      <p class="track-note" data-comparisons>{comparisonsNote(answer.multipleComparisons)}</p>
    </div>
  );
}
