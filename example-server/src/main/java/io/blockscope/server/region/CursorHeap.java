package io.blockscope.server.region;

import io.blockscope.server.cell.Cell;
import java.io.IOException;

/**
 * The merge of several store files: a binary min-heap of {@link FileCursor}s ordered by their
 * current cells, so {@link #top()} is always the next cell of the table in key order. Regions have
 * a handful of files, so a plain array heap beats a general priority queue and allocates nothing
 * per step.
 */
final class CursorHeap {

    private final FileCursor[] heap;
    private int size;

    CursorHeap(int capacity) {
        heap = new FileCursor[capacity];
    }

    /** Adds a cursor that has a current cell. */
    void add(FileCursor cursor) {
        int i = size++;
        heap[i] = cursor;
        siftUp(i);
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The cursor with the smallest current cell, or null when every file is exhausted. */
    FileCursor top() {
        return size == 0 ? null : heap[0];
    }

    /** Steps the top cursor past its cell and restores the order; exhausted cursors leave the heap. */
    void advanceTop() throws IOException {
        FileCursor top = heap[0];
        if (top.advance()) {
            siftDown(0);
        } else {
            top.close();
            heap[0] = heap[--size];
            heap[size] = null;
            if (size > 0) {
                siftDown(0);
            }
        }
    }

    /**
     * Steps past the top cell like {@link #advanceTop()}, first dropping the older versions of the
     * same column that other files hold (they sort right after it). Only the newest version of a
     * column is returned. The comparison is made while the top cell's block is still held, so it
     * needs no copy of the cell's key.
     */
    void advanceTopPastColumn() throws IOException {
        if (size > 1) {
            Cell newest = heap[0].peek();
            while (size > 1) {
                int next = size > 2 && compare(heap[2], heap[1]) < 0 ? 2 : 1;
                if (!heap[next].row().sameRow(heap[0].row()) || !KeyCompare.sameColumn(heap[next].peek(), newest)) {
                    break;
                }
                advanceAt(next);
            }
        }
        advanceTop();
    }

    /** Steps the cursor at heap index {@code i} past its cell and restores the order below it. */
    private void advanceAt(int i) throws IOException {
        FileCursor cursor = heap[i];
        if (cursor.advance()) {
            siftDown(i);
        } else {
            cursor.close();
            FileCursor last = heap[--size];
            heap[size] = null;
            if (i < size) {
                heap[i] = last;
                siftDown(i);
                siftUp(i);
            }
        }
    }

    /** Empties the heap, leaving the cursors (and their blocks) as they are. */
    void clear() {
        for (int i = 0; i < size; i++) {
            heap[i] = null;
        }
        size = 0;
    }

    /** Closes every cursor still in the heap (their shipped blocks go to the lease) and empties it. */
    void closeAll() {
        for (int i = 0; i < size; i++) {
            heap[i].close();
            heap[i] = null;
        }
        size = 0;
    }

    private void siftUp(int i) {
        FileCursor moving = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (compare(moving, heap[parent]) >= 0) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = moving;
    }

    private void siftDown(int i) {
        FileCursor moving = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && compare(heap[right], heap[child]) < 0) {
                child = right;
            }
            if (compare(moving, heap[child]) <= 0) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = moving;
    }

    /** Rows first, from the cursors' copies (no buffer reads); the full key only when the rows tie. */
    private static int compare(FileCursor a, FileCursor b) {
        int c = a.row().compareTo(b.row());
        return c != 0 ? c : KeyCompare.compareKeys(a.peek(), b.peek());
    }
}
