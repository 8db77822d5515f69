package io.ticketing.reservations.http;

import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One page of a list (contract section 4). {@code next_cursor} is null on the last page. Lists are ordered by id, which
 * never changes, so a row that existed when the first page was read is returned exactly once, however many rows
 * are written meanwhile.
 */
public record Page<T>(List<T> data,
        @Schema(nullable = true, description = "Pass as `cursor` for the next page; null on the last.") String nextCursor) {

    /** {@code rows} were read with {@link PageRequest#fetchSize()}: the row past the limit only says there is more. */
    public static <T> Page<T> of(List<T> rows, PageRequest request, ToLongFunction<T> id) {
        if (rows.size() <= request.limit()) {
            return new Page<>(rows, null);
        }
        List<T> page = rows.subList(0, request.limit());
        return new Page<>(List.copyOf(page), PageRequest.cursorAfter(id.applyAsLong(page.get(page.size() - 1))));
    }

    public <R> Page<R> map(Function<? super T, R> view) {
        return new Page<>(data.stream().<R>map(view).toList(), nextCursor);
    }
}
