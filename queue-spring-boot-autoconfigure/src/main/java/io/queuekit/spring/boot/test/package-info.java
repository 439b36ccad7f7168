/** For an application's own tests: {@link io.queuekit.spring.boot.test.AutoConfigureInMemoryQueues}. */
package io.queuekit.spring.boot.test;
