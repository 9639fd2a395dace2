package org.braid.coalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DatasetMilestonesTest {
  private final List<String> seen = new ArrayList<>();
  private final DatasetMilestones m =
      new DatasetMilestones(
          (name, when) -> seen.add(name), Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));

  @Test
  void tenths_markedOnceWhenReached_evenInOneStep() {
    m.filesDone(0, 7);
    m.filesDone(1, 7); // 14%: the first tenth
    m.filesDone(1, 7);
    m.filesDone(4, 7); // 57%: 20, 30, 40 and 50
    m.filesDone(7, 7);
    m.filesDone(7, 7);
    assertEquals(
        List.of(
            "files10",
            "files20",
            "files30",
            "files40",
            "files50",
            "files60",
            "files70",
            "files80",
            "files90",
            "files100"),
        seen);
  }

  @Test
  void firstRequestAndByte_onceEach() {
    m.firstRequest();
    m.firstByte();
    m.firstRequest();
    m.firstByte();
    m.mark("plan");
    assertEquals(List.of("request1", "byte1", "plan"), seen);
  }

  @Test
  void withoutListener_nothingHappens() {
    DatasetMilestones.NONE.firstByte();
    DatasetMilestones.NONE.filesDone(1, 1);
    DatasetMilestones.NONE.mark("job");
    assertEquals(List.of(), seen);
  }
}
