package org.hpf.crash;

import org.hpf.crash.LosingStorage.Loss;
import org.junit.jupiter.api.Tag;

/**
 * The machine loses power: bytes not synced may be lost, in closed files too, the last write
 * torn and followed by zeros.
 */
@Tag("slow")
class PowerLossRecoveryTest extends CrashRecoveryBattery {
  @Override
  Loss loss() {
    return Loss.MACHINE;
  }
}
