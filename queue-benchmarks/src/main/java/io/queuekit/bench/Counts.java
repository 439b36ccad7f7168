package io.queuekit.bench;

/**
 * What a measured run cost the Redis server per message, in numbers that do not depend on how
 * busy the machine was: from INFO between two {@link RedisProbe.Snapshot}s, less the probe's own
 * calls.
 *
 * @param scriptCalls {@code EVAL}, {@code EVALSHA}, {@code FCALL} and their read-only forms
 * @param commands every command the server ran, those run inside scripts included
 * @param roundTrips reads of client sockets ({@code total_reads_processed}): a pipeline or a
 *     blocking call counts once, and so does a connection's closing
 */
record Counts(double scriptCalls, double commands, double roundTrips) {}
