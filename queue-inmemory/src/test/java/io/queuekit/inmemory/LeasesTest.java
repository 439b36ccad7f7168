package io.queuekit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.MessageId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-flight messages by lease expiry, in list order or out of it. */
class LeasesTest {
    private static final Instant T = Instant.parse("2030-01-01T00:00:00Z");

    private final Leases leases = new Leases();
    private long leaseNumbers;

    private Msg leasedUntil(long second) {
        Msg m = new Msg(MessageId.of("m" + (leaseNumbers + 1)), "body", T);
        m.lease = ++leaseNumbers;
        m.leaseExpiry = T.plusSeconds(second);
        leases.add(m);
        return m;
    }

    private List<Msg> drained() {
        List<Msg> out = new ArrayList<>();
        for (Msg m = leases.first(); m != null; m = leases.first()) {
            out.add(m);
            leases.remove(m);
        }
        return out;
    }

    @Test
    void first_isTheEarliestExpiry_thenTheLowerLeaseNumber_whereverEachWasAdded() {
        Msg a = leasedUntil(10);
        Msg b = leasedUntil(30);
        Msg c = leasedUntil(20); // before the newest: out of list order
        Msg d = leasedUntil(30); // same expiry as b, later lease: list order
        Msg e = leasedUntil(5);

        assertThat(leases.size()).isEqualTo(5);
        assertThat(drained()).containsExactly(e, a, c, b, d);
        assertThat(leases.size()).isZero();
    }

    @Test
    void remove_fromTheMiddleEitherEnd_orOutOfListOrder_keepsTheRestInOrder() {
        Msg a = leasedUntil(1);
        Msg b = leasedUntil(2);
        Msg c = leasedUntil(3);
        Msg d = leasedUntil(4);
        Msg outOfOrder = leasedUntil(2);

        leases.remove(b);
        leases.remove(d);
        leases.remove(outOfOrder);
        Msg e = leasedUntil(5); // after the list's new end

        List<Msg> all = new ArrayList<>();
        leases.forEach(all::add);
        assertThat(all).containsExactlyInAnyOrder(a, c, e);
        assertThat(drained()).containsExactly(a, c, e);
    }

    @Test
    void aMessageRemovedAndAddedAgain_withALaterExpiry_takesItsNewPlace() {
        Msg a = leasedUntil(1);
        Msg b = leasedUntil(2);

        leases.remove(a);
        a.leaseExpiry = T.plusSeconds(60);
        leases.add(a);

        assertThat(drained()).containsExactly(b, a);
    }
}
