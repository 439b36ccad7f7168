package io.queuekit.spring.boot;

import io.queuekit.MissedTicks;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One recurring message: at every tick of its trigger (exactly one of cron, every and at), the
 * payload is stored on the delay queue, once however many instances run.
 */
public class ScheduleProperties {
    /** The delay queue the messages go to: a queuekit.queues entry of type delay. */
    private String queue;

    /** A cron expression (six fields from the second, or five from the minute) in the zone. */
    private String cron;

    /** The time zone of the cron expression, such as Europe/Berlin; UTC by default. */
    private String zone;

    /** A fixed rate: a tick every period, counted from the anchor (from). */
    private Duration every;

    /** The anchor of a fixed rate, one of its ticks; the epoch by default. */
    private Instant from;

    /** A single tick at this instant. */
    private Instant at;

    /** What happens to ticks missed while no instance ran: fire-once (the default) or skip. */
    private MissedTicks missed;

    /**
     * The message, as text: the queue's codec reads its UTF-8 bytes (a String queue takes it as
     * it is, a JSON queue as JSON); empty by default.
     */
    private String payload;

    /** The headers of every message. */
    private Map<String, String> headers = new LinkedHashMap<>();

    public String getQueue() {
        return queue;
    }

    public void setQueue(String queue) {
        this.queue = queue;
    }

    public String getCron() {
        return cron;
    }

    public void setCron(String cron) {
        this.cron = cron;
    }

    public String getZone() {
        return zone;
    }

    public void setZone(String zone) {
        this.zone = zone;
    }

    public Duration getEvery() {
        return every;
    }

    public void setEvery(Duration every) {
        this.every = every;
    }

    public Instant getFrom() {
        return from;
    }

    public void setFrom(Instant from) {
        this.from = from;
    }

    public Instant getAt() {
        return at;
    }

    public void setAt(Instant at) {
        this.at = at;
    }

    public MissedTicks getMissed() {
        return missed;
    }

    public void setMissed(MissedTicks missed) {
        this.missed = missed;
    }

    public String getPayload() {
        return payload;
    }

    public void setPayload(String payload) {
        this.payload = payload;
    }

    public Map<String, String> getHeaders() {
        return headers;
    }

    public void setHeaders(Map<String, String> headers) {
        this.headers = headers;
    }
}
