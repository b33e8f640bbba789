"""Iterating every page of a list."""

from typing import Callable, Iterator, Sequence, Tuple, TypeVar

T = TypeVar("T")


def iterate_pages(fetch: Callable[[int], Tuple[Sequence[T], bool]]) -> Iterator[T]:
    """Yield every item of a paged list: fetch(n) returns page n (from 0) and whether
    another page follows. Pages are fetched lazily, as the iteration reaches them; an error
    of fetch is raised from the iteration."""
    page = 0
    while True:
        items, more = fetch(page)
        for it in items:
            yield it
        if not more:
            return
        page += 1
