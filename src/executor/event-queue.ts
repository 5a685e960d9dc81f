/**
 * A single-consumer async queue: the producer pushes, the consumer iterates, and
 * close() or fail() ends the iteration after what was pushed.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #rejectWaiting: ((error: unknown) => void) | undefined;
  #closed = false;
  #error: { error: unknown } | undefined;

  push(item: T): void {
    if (this.#closed) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      this.#rejectWaiting = undefined;
      waiting({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  close(): void {
    this.#closed = true;
    this.#settleWaiting();
  }

  fail(error: unknown): void {
    this.#error = { error };
    this.#closed = true;
    this.#settleWaiting();
  }

  #settleWaiting(): void {
    if (this.#waiting === undefined) return;
    const resolve = this.#waiting;
    const reject = this.#rejectWaiting;
    this.#waiting = undefined;
    this.#rejectWaiting = undefined;
    if (this.#error !== undefined) {
      const { error } = this.#error;
      this.#error = undefined;
      reject?.(error);
    } else {
      resolve({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.#items.length > 0) return Promise.resolve({ value: this.#items.shift() as T, done: false });
        if (this.#error !== undefined) {
          const { error } = this.#error;
          this.#error = undefined;
          return Promise.reject(error);
        }
        if (this.#closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => {
          this.#waiting = resolve;
          this.#rejectWaiting = reject;
        });
      },
      return: () => {
        this.#closed = true;
        this.#items.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
