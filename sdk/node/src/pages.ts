/** One page of a list: its items and whether another page follows. */
export interface Page<T> {
  items: T[];
  more: boolean;
}

/**
 * Walks every item of a paged list: fetchPage(n) returns page n (from 0) and whether
 * another follows. Pages are fetched one at a time, as the loop asks for them; an error
 * ends the walk by throwing from the loop.
 *
 * ```ts
 * for await (const n of pages((i) => fetchMyPage(i))) console.log(n);
 * ```
 */
export async function* pages<T>(fetchPage: (page: number) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  for (let page = 0; ; page++) {
    const p = await fetchPage(page);
    yield* p.items;
    if (!p.more) return;
  }
}
