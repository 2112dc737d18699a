/** "1 turn", "2 turns", "1,200 requests": a count with its noun in the right number (`formatted` writes the figure). */
export function counted(count: number, noun: string, formatted: string = count.toLocaleString('en-US')): string {
  return `${formatted} ${noun}${count === 1 ? '' : 's'}`;
}
