// A request to ingest over Redis pub/sub: an ask published on one channel, its answer a message
// on another that names the ask's id. A front asks this way for the snapshot hash to be written
// (subscriber.ts) and for a chunk of history (history-copy.ts).
import type { RedisLink } from './redis-link.js';

export interface AskSent {
  /** Subscribers the ask reached (0: nobody listens on the ask's channel). */
  readonly heardBy: number;
  /** True once the answer came; false after the timeout. */
  readonly answered: Promise<boolean>;
}

export class PubSubAsks {
  /** Asks waiting for their answer, by id. */
  private readonly waiting = new Map<string, (answered: boolean) => void>();
  private unlisten: () => void = () => {};

  constructor(private readonly link: RedisLink, private readonly answerChannel: string) {}

  /** Hears the answers from now on. */
  start(): void {
    this.unlisten = this.link.listen(this.answerChannel,
      (message) => this.waiting.get(message.toString('utf8'))?.(true));
  }

  /** Hears no more answers; every ask still waiting settles as answered (its asker, stopping,
   *  looks no further). */
  stop(): void {
    this.unlisten();
    for (const settle of [...this.waiting.values()]) settle(true);
  }

  /** Publishes `message` on `channel`; its answer is the message `id` on the answer channel. */
  async ask(channel: string, message: string, id: string, timeoutMs: number): Promise<AskSent> {
    let settle!: (answered: boolean) => void;
    const answered = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => settle(false), timeoutMs);
      settle = (yes) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(yes);
      };
    });
    this.waiting.set(id, settle);
    try {
      return { heardBy: await this.link.command.publish(channel, message), answered };
    } catch (error) {
      settle(false);
      throw error;
    }
  }
}
