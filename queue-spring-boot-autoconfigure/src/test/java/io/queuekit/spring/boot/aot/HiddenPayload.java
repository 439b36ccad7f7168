package io.queuekit.spring.boot.aot;

import io.queuekit.spring.boot.QueueListener;

/** A listener whose payload type is not public, which AOT-generated code cannot name. */
public class HiddenPayload {
    record Note(String text) {}

    @QueueListener(queue = "notes")
    void handle(Note note) {}
}
