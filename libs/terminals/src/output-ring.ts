/**
 * The recent output of one terminal as this api process saw it, by position: `end` is the count of
 * chars the terminal printed in all (sandboxd numbers its output the same way), `text` the last
 * `max` of them. Positions make reattaching exact: a sandbox scrollback and the live chunks that
 * overlap it merge without duplicates, and a browser that says where it stopped gets only the rest.
 */
export class OutputRing {
  text = '';
  end = 0;

  constructor(private readonly max: number) {}

  /** Where `text` starts. */
  get start(): number {
    return this.end - this.text.length;
  }

  /** A live chunk ending at `end` (undefined: an older sandboxd without positions, taken as new). Returns what is new. */
  append(data: string, end?: number): string {
    const chunkEnd = end ?? this.end + data.length;
    if (chunkEnd <= this.end) return '';
    const fresh = data.slice(Math.max(0, data.length - (chunkEnd - this.end)));
    this.text = (this.text + fresh).slice(-this.max);
    this.end = chunkEnd;
    return fresh;
  }

  /**
   * A scrollback snapshot ending at `end` (the sandbox's answer to attach). Live chunks seen before
   * it (processed first though sent after) are kept after it; a snapshot older than them adds what
   * they lacked in front.
   */
  merge(snapshot: string, end: number | undefined): void {
    if (end === undefined) {
      if (!this.text) this.text = snapshot.slice(-this.max);
      this.end = Math.max(this.end, this.text.length);
      return;
    }
    if (end >= this.end) {
      this.text = snapshot.slice(-this.max);
      this.end = end;
      return;
    }
    // Everything after the snapshot's end that we hold, behind the snapshot.
    const tail = this.text.slice(Math.max(0, end - this.start));
    const tailStart = this.end - tail.length;
    if (tailStart > end) return; // a gap between them: keep the live part only
    this.text = (snapshot + tail).slice(-this.max);
  }

  /** Output after position `after`, or null when it is no longer held (or ahead of what we have). */
  since(after: number): string | null {
    if (after > this.end || after < this.start) return null;
    return this.text.slice(after - this.start);
  }
}
