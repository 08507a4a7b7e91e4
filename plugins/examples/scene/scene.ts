/** The example app's live state: an in-memory scene of objects. No I/O. */
import { randomUUID } from 'node:crypto';

export const OBJECT_KINDS = ['cube', 'sphere', 'light', 'camera'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

export interface Vector3 {
  x: number;
  y: number;
  z: number;
}

export interface SceneObject {
  id: string;
  name: string;
  kind: ObjectKind;
  position: Vector3;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  totalCount: number;
}

/** Gravity in scene units per second squared; the floor is y = 0. */
const GRAVITY = 9.81;

export class Scene {
  private readonly objects = new Map<string, SceneObject>();
  private velocities = new Map<string, number>();
  private ticks = 0;

  add(input: { name: string; kind: ObjectKind; position?: Vector3 }): SceneObject {
    const object: SceneObject = { id: randomUUID(), name: input.name, kind: input.kind, position: { ...(input.position ?? { x: 0, y: 0, z: 0 }) } };
    this.objects.set(object.id, object);
    return structuredClone(object);
  }

  list(limit: number): Page<SceneObject> {
    const all = [...this.objects.values()];
    return { items: all.slice(0, limit).map((o) => structuredClone(o)), hasMore: all.length > limit, totalCount: all.length };
  }

  get(id: string): SceneObject | undefined {
    const object = this.objects.get(id);
    return object ? structuredClone(object) : undefined;
  }

  /** Returns false when no object has that id. */
  remove(id: string): boolean {
    this.velocities.delete(id);
    return this.objects.delete(id);
  }

  /** Advances the physics: objects above the floor fall under gravity and stop at y = 0. */
  step(steps: number, dt: number): { tick: number; moved: number } {
    const moved = new Set<string>();
    for (let i = 0; i < steps; i++) {
      for (const object of this.objects.values()) {
        if (object.position.y <= 0) continue;
        const v = (this.velocities.get(object.id) ?? 0) + GRAVITY * dt;
        object.position.y = Math.max(0, object.position.y - v * dt);
        this.velocities.set(object.id, object.position.y === 0 ? 0 : v);
        moved.add(object.id);
      }
      this.ticks++;
    }
    return { tick: this.ticks, moved: moved.size };
  }

  get size(): number {
    return this.objects.size;
  }
}
