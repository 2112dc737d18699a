/**
 * The bounds of what the review reads (values of a config, its lines, the folders a text's `cd` leads to…). A bound
 * keeps a hostile text from holding the host; reaching one must never make the review read less in silence (round 14:
 * a config's 10,001st value, its 10,001st line, a hook's 25th `cd` folder let what they named land unchecked). Past a
 * bound what the change set runs is unknown, so the review stops with ConfigTooLarge, the path an unreadable followed
 * file takes (repositoryFacts.ts turns it into `incomplete`): the whole change set waits, and the message says why.
 */

/** A Git config the review cannot read whole (past its size bound, or naming too many paths): what it points at is unknown. */
export class ConfigTooLarge extends Error {}

/** Thrown when a bound is reached: what was being read, and its limit. */
export class BoundReached extends ConfigTooLarge {}

/** One bound: `check(count)` stops the review once `count` is past `limit`. */
export class ReviewBound {
  constructor(
    readonly limit: number,
    private readonly what: string,
  ) {}

  check(count: number): void {
    if (count > this.limit) throw new BoundReached(`${this.what}: more than ${this.limit.toLocaleString('en-US')}, too many to check`);
  }
}
