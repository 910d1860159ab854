import { Injectable } from '@nestjs/common';

/** Jobs this worker process is running right now (for /health). */
@Injectable()
export class ActiveJobs {
  private count = 0;

  get active(): number {
    return this.count;
  }

  async track<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await work();
    } finally {
      this.count--;
    }
  }
}
