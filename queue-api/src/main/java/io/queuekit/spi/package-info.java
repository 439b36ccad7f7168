/**
 * Building blocks for writing a transport: the managed consumer loop and argument checks shared by
 * every queuekit transport. Applications do not need this package.
 */
package io.queuekit.spi;
