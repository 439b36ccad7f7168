/**
 * What a backend implements to plug into queuekit: {@link io.queuekit.spi.QueueMetrics}, which
 * every transport reports to (the {@code queue-micrometer} module implements it). Applications
 * pass an implementation to a queue's builder and need nothing else from this package.
 */
package io.queuekit.spi;
