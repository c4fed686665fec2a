type Listener = () => void

/**
 * The caller's count of unread notifications, as the API last answered it, shared by the navigation,
 * the dashboard and the notifications page. Answers can arrive out of order (the navigation's read
 * started before a "Mark all as read" may land after it): each read takes a ticket when it starts, and
 * an answer is kept only if no read that started later has answered already.
 */
export class UnreadCount {
  private value: number | null = null
  private issued = 0
  private shown = 0
  private readonly listeners = new Set<Listener>()

  /** The count, or null before the first answer. */
  readonly get = (): number | null => this.value

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  /** A ticket for a read about to start; pass it to `answered` with the count it gives. */
  start(): number {
    return ++this.issued
  }

  answered(ticket: number, count: number): void {
    if (ticket < this.shown) return
    this.shown = ticket
    if (count === this.value) return
    this.value = count
    for (const listener of this.listeners) listener()
  }

  /** Takes a count another answer carried (GET /api/auth/me's, at page load) as a read that just answered. */
  seed(count: number): void {
    this.answered(this.start(), count)
  }

  /** Forgets the count (at sign-out: the next user must not see it); reads still under way are dropped. */
  clear(): void {
    this.shown = this.start()
    if (this.value === null) return
    this.value = null
    for (const listener of this.listeners) listener()
  }

  /** Reads the count with `read`; a failed read leaves the last count shown. */
  async refresh(read: () => Promise<number>): Promise<void> {
    const ticket = this.start()
    try {
      this.answered(ticket, await read())
    } catch {
      // The count is a hint beside the navigation: a failure here is shown by the page that needs the data.
    }
  }
}
