import { cast, isShape3D, measureVolume, type Shape3D } from 'replicad';
import { occt } from './occt';

/**
 * STEP in and out through OCCT's own reader and writer. The writer is set to AP214 (replicad's
 * `blobSTEP` writes AP242, which older readers refuse); lengths are millimetres.
 */

/** OCCT's `write.step.schema` value for AP214 IS ('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'). */
const AP214 = 4;
let fileCounter = 0;

/** The shape in a STEP file; `fail` is called with a sentence when the file holds no usable solid. */
export function readStep(data: Uint8Array, fail: (message: string) => never): Shape3D {
  const oc = occt();
  const path = `/import-${++fileCounter}.step`;
  oc.FS.writeFile(path, data);
  const reader = new oc.STEPControl_Reader();
  const progress = new oc.Message_ProgressRange();
  try {
    if (reader.ReadFile(path) !== oc.IFSelect_ReturnStatus.IFSelect_RetDone) return fail('the data is not a readable STEP file');
    if (reader.TransferRoots(progress) === 0) return fail('the STEP file holds no shape OpenCascade can transfer');
    const shape = cast(reader.OneShape());
    if (!isShape3D(shape) || shape.isNull) {
      shape.delete();
      return fail('the STEP file holds no solid');
    }
    const solids = shape.solids;
    const count = solids.length;
    for (const solid of solids) solid.delete();
    if (count === 0 || !(measureVolume(shape) > 0)) {
      shape.delete();
      return fail('the STEP file holds surfaces or wires but no closed solid');
    }
    return shape;
  } finally {
    progress.delete();
    reader.delete();
    oc.FS.unlink(path);
  }
}

/** The shape as an AP214 STEP file. */
export function writeStep(shape: Shape3D): Uint8Array {
  const oc = occt();
  const path = `/export-${++fileCounter}.step`;
  const writer = new oc.STEPControl_Writer();
  const progress = new oc.Message_ProgressRange();
  try {
    oc.Interface_Static.SetIVal('write.step.schema', AP214);
    oc.Interface_Static.SetCVal('write.step.unit', 'MM');
    const done = oc.IFSelect_ReturnStatus.IFSelect_RetDone;
    if (writer.Transfer(shape.wrapped, oc.STEPControl_StepModelType.STEPControl_AsIs, true, progress) !== done) throw new Error('OCCT could not translate the shape to STEP');
    if (writer.Write(path) !== done) throw new Error('OCCT could not write the STEP file');
    return oc.FS.readFile(path);
  } finally {
    progress.delete();
    writer.delete();
    try {
      oc.FS.unlink(path);
    } catch {
      // nothing was written
    }
  }
}
