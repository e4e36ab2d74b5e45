// Grades from evidence, walk-forward: a signal's letter comes from the outcomes of its setup
// evaluated (market time) before its bar opened, shrunk toward the pool of all outcomes before
// it; below EVIDENCE_MIN_N of them the rule grade stands. Run on the main thread, where the
// outcomes of every pair meet, once per signal before it is stored, so the stored signal (what
// webhooks, history, the track record and the scale-out fronts show) carries the final letter.
import type { Grade } from '../../core/messages.js';
import {
  clearEvidenceBook, createEvidenceBook, evidenceBetween, recordEvidence,
} from './evidence-book.js';
import {
  EVIDENCE_WINDOW_MS, evidenceLetter, setupKey, shrinkEvidence, type GradeEvidence,
} from './evidence.js';
import { lowerGrade } from './grade.js';
import { resultR } from './track-record.js';
import type { EntrySignal, SignalOutcome } from './types.js';

/** The pool's key: no setup key has no '|'. */
const POOLED = '*';

/** A stored record as the grader reads it (persistence/signals.ts SignalRecord). */
export interface GradedRecord {
  readonly signal: EntrySignal;
  readonly outcomeDone: boolean;
  readonly result?: Readonly<Record<string, unknown>>;
}

export class EvidenceGrader {
  private readonly book = createEvidenceBook();

  /**
   * Fills the book from every stored outcome at start: in one sorted pass, so the sums are those
   * a process that saw them one by one has.
   */
  rebuild(records: Iterable<GradedRecord>): void {
    clearEvidenceBook(this.book);
    const rows: { key: string; timeMs: number; r: number }[] = [];
    for (const record of records) {
      if (!record.outcomeDone || record.result === undefined) continue;
      const outcome = record.result as unknown as SignalOutcome;
      rows.push({ key: setupKey(record.signal), timeMs: Date.parse(outcome.evaluated_at),
        r: resultR(record.signal, outcome) });
    }
    rows.sort((a, b) => a.timeMs - b.timeMs || a.r - b.r);
    for (const row of rows) this.add(row.key, row.timeMs, row.r);
  }

  /** An outcome just evaluated and stored. */
  record(signal: EntrySignal, outcome: SignalOutcome): void {
    this.add(setupKey(signal), Date.parse(outcome.evaluated_at), resultR(signal, outcome));
  }

  /**
   * The evidence of the signal's setup from outcomes evaluated in the EVIDENCE_WINDOW_MS before
   * its bar opened.
   */
  evidenceFor(signal: EntrySignal): GradeEvidence {
    const beforeMs = Date.parse(signal.bar_time);
    if (!Number.isFinite(beforeMs)) throw new RangeError(`bar_time ${signal.bar_time}`);
    const fromMs = beforeMs - EVIDENCE_WINDOW_MS;
    return shrinkEvidence(evidenceBetween(this.book, setupKey(signal), fromMs, beforeMs),
      evidenceBetween(this.book, POOLED, fromMs, beforeMs));
  }

  /** The signal with its final grade, `grade_rules`, `grade_basis` and `grade_evidence`. */
  grade(signal: EntrySignal): EntrySignal {
    return applyEvidence(signal, this.evidenceFor(signal));
  }

  private add(key: string, timeMs: number, r: number): void {
    recordEvidence(this.book, key, timeMs, r);
    recordEvidence(this.book, POOLED, timeMs, r);
  }
}

/**
 * The letter before any session lowering is the evidence's, or the rules' while the evidence is
 * short; a builder market outside its session is then lowered one step, as the detector does
 * with the rule grade (`grade_before_session` keeps the letter before that step).
 */
export function applyEvidence(signal: EntrySignal, evidence: GradeEvidence): EntrySignal {
  const rules: Grade = signal.grade_rules ?? signal.grade_before_session ?? signal.grade;
  const earned = evidenceLetter(evidence);
  const letter = earned ?? rules;
  const closed = signal.session === 'closed';
  // Object.assign: a spread followed by keys the signal lacks makes V8 reshape the copy slowly.
  return Object.assign({}, signal, {
    grade: closed ? lowerGrade(letter) : letter,
    ...(closed ? { grade_before_session: letter } : {}),
    grade_rules: rules, grade_basis: earned === null ? 'rules' : 'evidence',
    grade_evidence: evidence,
  } as const);
}
