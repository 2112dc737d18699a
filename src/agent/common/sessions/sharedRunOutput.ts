/**
 * The one "Gateway Agent" output that the palette's sessions write to (issue 40: sessions side by side). A run
 * alone writes its streamed text as it comes. While several run at once, each holds its streamed text until a
 * line ends (or `maxHeld` characters wait, then cut there), so two answers never interleave mid-word; a run's
 * first write after another's unfinished line starts on a line of its own.
 */

/** One run's writer. */
export interface RunOutput {
  /** Streamed text of the model's answer. */
  text(text: string): void;
  /** A line of its own (a tool call, a note): what the run held is written first. */
  line(line: string): void;
  /** The run ended: what it held is written; the others may stream freely again once alone. */
  end(): void;
}

export class SharedRunOutput {
  private active = 0;
  private nextId = 1;
  private lastWriter = 0;
  private endsLine = true;

  constructor(
    private readonly append: (text: string) => void,
    private readonly maxHeld = 200,
  ) {}

  /** A line from outside any run (the `=== task` line a run starts with). */
  line(line: string): void {
    this.write(0, `${line}\n`);
  }

  run(): RunOutput {
    const id = this.nextId++;
    this.active++;
    let held = '';
    let ended = false;
    // The run's line was cut at maxHeld and ended there: the line end the model sends next is that one.
    let cut = false;
    const flush = () => {
      if (held) this.write(id, held);
      held = '';
    };
    return {
      text: (streamed) => {
        if (ended) return;
        const text = cut && streamed.startsWith('\n') ? streamed.slice(1) : streamed;
        cut = false;
        if (this.active <= 1 && !held) return this.write(id, text);
        held += text;
        const end = held.lastIndexOf('\n');
        if (end >= 0) {
          this.write(id, held.slice(0, end + 1));
          held = held.slice(end + 1);
        }
        // A long line without an end is written in pieces, each ended, rather than held for the whole answer.
        if (held.length >= this.maxHeld) {
          this.write(id, `${held}\n`);
          held = '';
          cut = true;
        }
      },
      line: (line) => {
        if (ended) return;
        flush();
        this.write(id, `${line}\n`);
      },
      end: () => {
        if (ended) return;
        ended = true;
        flush();
        this.active--;
      },
    };
  }

  private write(writer: number, text: string): void {
    if (!text) return;
    // Another writer's line was left open: this one starts below it.
    const prefix = writer !== this.lastWriter && !this.endsLine ? '\n' : '';
    this.append(`${prefix}${text}`);
    this.lastWriter = writer;
    this.endsLine = text.endsWith('\n');
  }
}
