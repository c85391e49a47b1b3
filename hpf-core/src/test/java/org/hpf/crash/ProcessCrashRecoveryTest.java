package org.hpf.crash;

import org.hpf.crash.LosingStorage.Loss;

/** The writer's process dies: bytes not flushed may be lost, the last write torn. */
class ProcessCrashRecoveryTest extends CrashRecoveryBattery {
  @Override
  Loss loss() {
    return Loss.PROCESS;
  }
}
