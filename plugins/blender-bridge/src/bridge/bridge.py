"""
The Blender side of the bridge: a JSON-lines server on a Unix socket, run by Blender's own Python:

    blender -b --factory-startup [scene.blend] --python bridge.py -- --socket PATH

In background mode bpy timers never fire and bpy is not thread-safe, so the accept/read loop runs
on Blender's main thread and handles one command at a time, from any number of clients (the host,
and whoever else connects: a person's script is an outside change the host must notice).

`run_script` runs a Python script inside Blender with `bpy` at hand, as a person's script in
Blender's own console would: whatever it changes is an outside change. The socket is created
mode 0600 in the workspace, so only the workspace's user (who could run Blender anyway) connects.

A request is one line `{"id": 1, "cmd": "snapshot", ...}`; the answer is one line
`{"id": 1, "ok": true, "result": ...}` or `{"id": 1, "ok": false, "error": {"code", "message", "details"}}`.
Blender prints to stdout, so nothing of the protocol goes there.

Without a .blend the factory scene is emptied: the host builds the scene with `load`.
"""
import argparse
import array
import hashlib
import json
import math
import os
import select
import socket
import sys
import traceback

import bpy

PROTOCOL = 1
PRIMITIVE_KEY = "cowork_primitive"
# The geometry hash of a primitive as the host made it: a mesh that no longer has it was edited.
MESH_HASH_KEY = "cowork_mesh_hash"
# A mesh whose lowest point is within this of the surface below it rests on that surface.
SUPPORT_TOLERANCE_M = 0.001
STATE = {"stopping": False}


class BridgeError(Exception):
    def __init__(self, code, message, details=None):
        super().__init__(message)
        self.code = code
        self.details = details or {}


# ---------------------------------------------------------------------------------------------
# Snapshot: the scene as JSON, rounded so that float32 noise does not read as a change.


def num(value):
    rounded = round(float(value), 4)
    return 0.0 if rounded == 0 else rounded  # no -0.0: it would differ from 0 in a deep comparison


def vec(values):
    return [num(v) for v in values]


def snapshot():
    bpy.context.view_layer.update()  # dimensions and matrices are stale until the scene is evaluated
    objects = [describe_object(obj) for obj in sorted(bpy.context.scene.objects, key=lambda o: o.name)]
    used = sorted({m for o in objects for m in o["materials"]})
    scene = {
        "objects": objects,
        "materials": [describe_material(bpy.data.materials[name]) for name in used],
        "activeCamera": bpy.context.scene.camera.name if bpy.context.scene.camera else None,
    }
    return {"scene": scene}


def describe_object(obj):
    out = {
        "name": obj.name,
        "type": obj.type.lower(),
        "location": vec(obj.location),
        "rotation": [num(math.degrees(a)) for a in obj.rotation_euler],
        "scale": vec(obj.scale),
        "parent": obj.parent.name if obj.parent else None,
        "materials": [slot.material.name for slot in obj.material_slots if slot.material],
        "modifiers": [describe_modifier(m) for m in obj.modifiers],
    }
    if obj.type == "MESH":
        stored = obj.get(PRIMITIVE_KEY)
        geometry = geometry_hash(obj.data)
        out["mesh"] = {
            "primitive": json.loads(stored) if stored else None,
            "dimensions": local_dimensions(obj),
            # null while the mesh is the primitive the host made; once edited, the hash of what it is,
            # so that a vertex moved inside its bounding box is a change too.
            "editHash": None if stored and obj.get(MESH_HASH_KEY) == geometry else geometry,
        }
    elif obj.type == "LIGHT":
        out["light"] = {"type": obj.data.type.lower(), "energy": num(obj.data.energy), "color": vec(obj.data.color)}
    elif obj.type == "CAMERA":
        out["camera"] = {"lens": num(obj.data.lens)}
    return out


def geometry_hash(mesh):
    """A short hash of a mesh's vertex positions (exact float32 bits) and of its faces."""
    co = array.array("f", bytes(4 * 3 * len(mesh.vertices)))
    mesh.vertices.foreach_get("co", co)
    loops = array.array("i", bytes(4 * len(mesh.loops)))
    mesh.loops.foreach_get("vertex_index", loops)
    sizes = array.array("i", bytes(4 * len(mesh.polygons)))
    mesh.polygons.foreach_get("loop_total", sizes)
    digest = hashlib.blake2b(digest_size=8)
    for part in (co, loops, sizes):
        digest.update(part.tobytes())
    return digest.hexdigest()


def local_dimensions(obj):
    """The evaluated bounding box (modifiers included) times the object's own scale. Unlike
    `obj.dimensions` it leaves out the parents' scale, so that parenting does not resize a mesh."""
    corners = [c[:] for c in obj.bound_box]
    return [num((max(c[i] for c in corners) - min(c[i] for c in corners)) * abs(obj.scale[i])) for i in range(3)]


def describe_modifier(mod):
    if mod.type == "BEVEL":
        return {"name": mod.name, "type": "bevel", "params": {"width": num(mod.width), "segments": mod.segments}}
    if mod.type == "SUBSURF":
        return {"name": mod.name, "type": "subdivision", "params": {"levels": mod.levels}}
    if mod.type == "ARRAY":
        return {"name": mod.name, "type": "array", "params": {"count": mod.count, "offset": vec(mod.relative_offset_displace)}}
    if mod.type == "MIRROR":
        return {"name": mod.name, "type": "mirror", "params": {"axes": [bool(a) for a in mod.use_axis]}}
    return {"name": mod.name, "type": mod.type.lower(), "params": {}}


def describe_material(mat):
    bsdf = principled(mat)
    if bsdf is None:
        return {"name": mat.name, "baseColor": vec(mat.diffuse_color), "metallic": num(mat.metallic), "roughness": num(mat.roughness)}
    return {
        "name": mat.name,
        "baseColor": vec(bsdf.inputs["Base Color"].default_value),
        "metallic": num(bsdf.inputs["Metallic"].default_value),
        "roughness": num(bsdf.inputs["Roughness"].default_value),
    }


def principled(mat):
    if not mat.use_nodes or mat.node_tree is None:
        return None
    return next((n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED"), None)


# ---------------------------------------------------------------------------------------------
# Ops: every check runs before the first change, so a rejected op leaves the scene as it was.


def find_object(name):
    obj = bpy.context.scene.objects.get(name) if isinstance(name, str) else None
    if obj is None:
        names = sorted(o.name for o in bpy.context.scene.objects)
        raise BridgeError(
            "unknown_object",
            f"no object named {json.dumps(name)} in the scene; it has {', '.join(names) if names else 'no objects'}",
            {"object": name, "existing": names},
        )
    return obj


def require_new_name(name):
    if name in bpy.data.objects:
        raise BridgeError("invalid_op", f"an object named {json.dumps(name)} already exists; choose another name", {"name": name})


def apply_op(op):
    kind = op.get("type")
    handler = OPS.get(kind)
    if handler is None:
        raise BridgeError("invalid_op", f"unknown op type {json.dumps(kind)}; use one of {', '.join(sorted(OPS))}")
    handler(op)


def link_new_object(name, data):
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def set_transform(obj, op):
    if op.get("location") is not None:
        obj.location = op["location"]
    if op.get("rotation") is not None:
        obj.rotation_euler = [math.radians(a) for a in op["rotation"]]
    if op.get("scale") is not None:
        obj.scale = op["scale"]


def build_primitive(name, primitive):
    shape = primitive.get("shape")
    if shape == "cube":
        bpy.ops.mesh.primitive_cube_add(size=primitive.get("size", 2))
    elif shape == "plane":
        bpy.ops.mesh.primitive_plane_add(size=primitive.get("size", 2))
    elif shape == "uv_sphere":
        bpy.ops.mesh.primitive_uv_sphere_add(
            radius=primitive.get("radius", 1), segments=primitive.get("segments", 32), ring_count=primitive.get("rings", 16)
        )
    elif shape == "cylinder":
        bpy.ops.mesh.primitive_cylinder_add(
            radius=primitive.get("radius", 1), depth=primitive.get("depth", 2), vertices=primitive.get("vertices", 32)
        )
    elif shape == "cone":
        bpy.ops.mesh.primitive_cone_add(
            radius1=primitive.get("radius1", 1),
            radius2=primitive.get("radius2", 0),
            depth=primitive.get("depth", 2),
            vertices=primitive.get("vertices", 32),
        )
    elif shape == "torus":
        bpy.ops.mesh.primitive_torus_add(
            major_radius=primitive.get("majorRadius", 1), minor_radius=primitive.get("minorRadius", 0.25)
        )
    else:
        raise BridgeError("invalid_op", f"unknown primitive shape {json.dumps(shape)}")
    obj = bpy.context.active_object
    obj.name = name
    obj.data.name = name
    obj[PRIMITIVE_KEY] = json.dumps(primitive, sort_keys=True)
    obj[MESH_HASH_KEY] = geometry_hash(obj.data)
    # The operator links to the active collection; keep every object in the scene's own collection.
    for collection in list(obj.users_collection):
        collection.objects.unlink(obj)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def op_add_object(op):
    require_new_name(op["name"])
    set_transform(build_primitive(op["name"], op["primitive"]), op)  # an unknown shape raises before any change


def op_delete_object(op):
    obj = find_object(op["object"])
    data = obj.data
    bpy.data.objects.remove(obj)
    if data is not None and data.users == 0:
        remove_data(data)


def remove_data(data):
    if isinstance(data, bpy.types.Mesh):
        bpy.data.meshes.remove(data)
    elif isinstance(data, bpy.types.Light):
        bpy.data.lights.remove(data)
    elif isinstance(data, bpy.types.Camera):
        bpy.data.cameras.remove(data)


def op_set_transform(op):
    set_transform(find_object(op["object"]), op)


def op_set_material(op):
    obj = find_object(op["object"])
    if obj.type != "MESH":
        raise BridgeError("invalid_op", f"{json.dumps(obj.name)} is a {obj.type.lower()}; only meshes take materials", {"object": obj.name})
    mat = bpy.data.materials.get(op["material"]) or bpy.data.materials.new(op["material"])
    mat.use_nodes = True
    bsdf = principled(mat)
    if op.get("baseColor") is not None:
        color = list(op["baseColor"]) + [1.0] * (4 - len(op["baseColor"]))
        bsdf.inputs["Base Color"].default_value = color
        mat.diffuse_color = color
    if op.get("metallic") is not None:
        bsdf.inputs["Metallic"].default_value = op["metallic"]
    if op.get("roughness") is not None:
        bsdf.inputs["Roughness"].default_value = op["roughness"]
    obj.data.materials.clear()
    obj.data.materials.append(mat)


def op_add_light(op):
    require_new_name(op["name"])
    light = bpy.data.lights.new(op["name"], op["light"].upper())
    if op.get("energy") is not None:
        light.energy = op["energy"]
    if op.get("color") is not None:
        light.color = op["color"]
    set_transform(link_new_object(op["name"], light), op)


def op_add_camera(op):
    require_new_name(op["name"])
    camera = bpy.data.cameras.new(op["name"])
    if op.get("lens") is not None:
        camera.lens = op["lens"]
    obj = link_new_object(op["name"], camera)
    set_transform(obj, op)
    if op.get("active") or bpy.context.scene.camera is None:
        bpy.context.scene.camera = obj


def op_set_active_camera(op):
    obj = find_object(op["object"])
    if obj.type != "CAMERA":
        raise BridgeError("invalid_op", f"{json.dumps(obj.name)} is a {obj.type.lower()}, not a camera", {"object": obj.name})
    bpy.context.scene.camera = obj


MODIFIER_TYPES = {"bevel": "BEVEL", "subdivision": "SUBSURF", "array": "ARRAY", "mirror": "MIRROR"}


def op_add_modifier(op):
    obj = find_object(op["object"])
    spec = op["modifier"]
    if obj.type != "MESH":
        raise BridgeError("invalid_op", f"{json.dumps(obj.name)} is a {obj.type.lower()}; only meshes take modifiers", {"object": obj.name})
    if spec.get("type") not in MODIFIER_TYPES:
        raise BridgeError("invalid_op", f"unknown modifier type {json.dumps(spec.get('type'))}; use one of {', '.join(MODIFIER_TYPES)}")
    name = op.get("name") or spec["type"]
    if name in obj.modifiers:
        raise BridgeError("invalid_op", f"{json.dumps(obj.name)} already has a modifier named {json.dumps(name)}", {"object": obj.name})
    mod = obj.modifiers.new(name, MODIFIER_TYPES[spec["type"]])
    params = spec.get("params", {})
    if spec["type"] == "bevel":
        mod.width = params.get("width", 0.1)
        mod.segments = params.get("segments", 1)
    elif spec["type"] == "subdivision":
        mod.levels = params.get("levels", 1)
        mod.render_levels = params.get("levels", 1)
    elif spec["type"] == "array":
        mod.count = params.get("count", 2)
        mod.relative_offset_displace = params.get("offset", [1, 0, 0])
    elif spec["type"] == "mirror":
        mod.use_axis = params.get("axes", [True, False, False])


def op_remove_modifier(op):
    obj = find_object(op["object"])
    mod = obj.modifiers.get(op["name"])
    if mod is None:
        names = [m.name for m in obj.modifiers]
        raise BridgeError(
            "invalid_op",
            f"{json.dumps(obj.name)} has no modifier named {json.dumps(op['name'])}; it has {', '.join(names) if names else 'none'}",
            {"object": obj.name, "existing": names},
        )
    obj.modifiers.remove(mod)


def op_rename_object(op):
    obj = find_object(op["object"])
    if op["name"] != obj.name:
        require_new_name(op["name"])
    obj.name = op["name"]


def op_parent(op):
    obj = find_object(op["object"])
    bpy.context.view_layer.update()  # matrix_world is stale until the scene is evaluated
    if op.get("parent") is None:
        world = obj.matrix_world.copy()
        obj.parent = None
        obj.matrix_world = world
        return
    parent = find_object(op["parent"])
    ancestor = parent
    while ancestor is not None:
        if ancestor == obj:
            raise BridgeError("invalid_op", f"parenting {json.dumps(obj.name)} to {json.dumps(parent.name)} would make a cycle", {"object": obj.name})
        ancestor = ancestor.parent
    # Keep the object where it is: its location stays what it was, relative to the parent's inverse.
    world = obj.matrix_world.copy()
    obj.parent = parent
    obj.matrix_parent_inverse = parent.matrix_world.inverted()
    obj.matrix_world = world


OPS = {
    "add_object": op_add_object,
    "delete_object": op_delete_object,
    "set_transform": op_set_transform,
    "set_material": op_set_material,
    "add_light": op_add_light,
    "add_camera": op_add_camera,
    "set_active_camera": op_set_active_camera,
    "add_modifier": op_add_modifier,
    "remove_modifier": op_remove_modifier,
    "rename_object": op_rename_object,
    "parent": op_parent,
}


# ---------------------------------------------------------------------------------------------
# Whole-scene commands.


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    for collection in (bpy.data.meshes, bpy.data.lights, bpy.data.cameras, bpy.data.materials):
        for block in list(collection):
            collection.remove(block)


def load_scene(scene):
    """Builds a scene from a snapshot: what the host recorded becomes what Blender holds."""
    clear_scene()
    for spec in scene.get("materials", []):
        mat = bpy.data.materials.new(spec["name"])
        mat.use_nodes = True
        bsdf = principled(mat)
        bsdf.inputs["Base Color"].default_value = spec["baseColor"]
        bsdf.inputs["Metallic"].default_value = spec["metallic"]
        bsdf.inputs["Roughness"].default_value = spec["roughness"]
        mat.diffuse_color = spec["baseColor"]
    for spec in scene["objects"]:
        obj = build_object(spec)
        set_transform(obj, spec)
        for mat_name in spec.get("materials", []):
            obj.data.materials.append(bpy.data.materials[mat_name])
        for mod in spec.get("modifiers", []):
            if mod["type"] in MODIFIER_TYPES:
                op_add_modifier({"object": obj.name, "name": mod["name"], "modifier": {"type": mod["type"], "params": mod["params"]}})
    for spec in scene["objects"]:
        if spec.get("parent"):
            op_parent({"object": spec["name"], "parent": spec["parent"]})
            set_transform(bpy.data.objects[spec["name"]], spec)
    active = scene.get("activeCamera")
    bpy.context.scene.camera = bpy.data.objects[active] if active else None


def build_object(spec):
    kind = spec["type"]
    if kind == "mesh":
        primitive = spec["mesh"]["primitive"]
        if primitive is not None:
            return build_primitive(spec["name"], primitive)
        # A mesh made outside the host: its shape is not recorded, so a box of its size stands in.
        obj = build_primitive(spec["name"], {"shape": "cube", "size": 1})
        del obj[PRIMITIVE_KEY]
        del obj[MESH_HASH_KEY]
        dims = spec["mesh"]["dimensions"]
        scale = spec["scale"]
        obj.data.transform(mathutils_scale([d / s if s else d for d, s in zip(dims, scale)]))
        return obj
    if kind == "light":
        light = bpy.data.lights.new(spec["name"], spec["light"]["type"].upper())
        light.energy = spec["light"]["energy"]
        light.color = spec["light"]["color"]
        return link_new_object(spec["name"], light)
    if kind == "camera":
        camera = bpy.data.cameras.new(spec["name"])
        camera.lens = spec["camera"]["lens"]
        return link_new_object(spec["name"], camera)
    return link_new_object(spec["name"], None)


def mathutils_scale(factors):
    from mathutils import Matrix

    return Matrix.Diagonal(list(factors) + [1.0])


def save(path, copy):
    """Saves the scene; a copy leaves the file Blender holds (and will restart from) as it was."""
    bpy.ops.wm.save_as_mainfile(filepath=path, check_existing=False, compress=False, copy=copy)
    return {"path": path}


def export_glb(path):
    bpy.ops.export_scene.gltf(filepath=path, export_format="GLB", export_cameras=True, export_lights=True, use_selection=False)
    return {"path": path}


def render_png(path, width=320, height=240, samples=16):
    """A small Cycles preview on the CPU. Without a camera or a light, temporary ones frame the scene."""
    scene = bpy.context.scene
    temporary = []
    if not any(o.type == "LIGHT" for o in scene.objects):
        sun = bpy.data.lights.new("cowork_preview_sun", "SUN")
        sun.energy = 3
        obj = link_new_object("cowork_preview_sun", sun)
        obj.rotation_euler = [math.radians(40), math.radians(20), math.radians(30)]
        temporary.append(obj)
    saved_camera = scene.camera
    if scene.camera is None:
        camera = link_new_object("cowork_preview_camera", bpy.data.cameras.new("cowork_preview_camera"))
        frame_scene(camera)
        scene.camera = camera
        temporary.append(camera)
    try:
        scene.render.engine = "CYCLES"
        scene.cycles.device = "CPU"
        scene.cycles.samples = samples
        scene.cycles.use_denoising = False  # Debian's Blender has no denoiser: renders fail without this
        scene.render.resolution_x = width
        scene.render.resolution_y = height
        scene.render.resolution_percentage = 100
        scene.render.image_settings.file_format = "PNG"
        scene.render.filepath = path
        bpy.ops.render.render(write_still=True)
    finally:
        scene.camera = saved_camera
        for obj in temporary:
            data = obj.data
            bpy.data.objects.remove(obj)
            remove_data(data)
    return {"path": path, "width": width, "height": height}


def frame_scene(camera):
    from mathutils import Vector

    low, high = world_bounds([o for o in bpy.context.scene.objects if o.type == "MESH"]) or (Vector((-1, -1, -1)), Vector((1, 1, 1)))
    center = (low + high) / 2
    radius = max((high - low).length / 2, 0.5)
    direction = Vector((1, -1, 0.7)).normalized()
    camera.location = center + direction * radius * 3.2
    camera.rotation_euler = (center - camera.location).to_track_quat("-Z", "Y").to_euler()


def world_bounds(objects):
    from mathutils import Vector

    corners = [o.matrix_world @ Vector(c) for o in objects for c in o.bound_box]
    if not corners:
        return None
    return (
        Vector([min(c[i] for c in corners) for i in range(3)]),
        Vector([max(c[i] for c in corners) for i in range(3)]),
    )


def mesh_bounds(obj, depsgraph):
    """World-space bounds of the evaluated mesh (modifiers included), from its vertices."""
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    try:
        points = [evaluated.matrix_world @ v.co for v in mesh.vertices]
    finally:
        evaluated.to_mesh_clear()
    if not points:
        return None
    return [min(p[i] for p in points) for i in range(3)], [max(p[i] for p in points) for i in range(3)]


def check_support():
    """Meshes resting on nothing: the lowest point above the highest surface below (another mesh
    whose footprint overlaps, or the ground z=0), by more than a millimetre."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    bounds = {}
    for obj in bpy.context.scene.objects:
        if obj.type == "MESH":
            found = mesh_bounds(obj, depsgraph)
            if found is not None:
                bounds[obj.name] = found
    findings = []
    for name, (low, high) in sorted(bounds.items()):
        bottom = low[2]
        surface, resting_on = 0.0, None
        for other, (olow, ohigh) in bounds.items():
            overlaps = other != name and olow[0] < high[0] and ohigh[0] > low[0] and olow[1] < high[1] and ohigh[1] > low[1]
            below = overlaps and ohigh[2] <= bottom + SUPPORT_TOLERANCE_M
            # An object at ground level (a ground plane) is named as the surface rather than the ground.
            if below and (ohigh[2] > surface or (resting_on is None and ohigh[2] >= surface)):
                surface, resting_on = ohigh[2], other
        gap = bottom - surface
        if gap > SUPPORT_TOLERANCE_M:
            findings.append({"object": name, "gap_m": num(gap), "restingOn": resting_on})
    return {"findings": findings, "checked": sorted(bounds)}


# ---------------------------------------------------------------------------------------------
# The server.


def handle(request):
    cmd = request.get("cmd")
    if cmd == "ping":
        return {"protocol": PROTOCOL, "pid": os.getpid(), "blender": bpy.app.version_string, "file": bpy.data.filepath}
    if cmd == "snapshot":
        return snapshot()
    if cmd == "apply":
        if not isinstance(request.get("op"), dict):
            raise BridgeError("bad_request", "apply needs an op object")
        apply_op(request["op"])
        return snapshot()
    if cmd == "load":
        load_scene(request["scene"])
        return snapshot()
    if cmd == "run_script":
        run_script(request["code"])
        return snapshot()
    if cmd == "save":
        return save(request["path"], bool(request.get("copy", False)))
    if cmd == "export_glb":
        return export_glb(request["path"])
    if cmd == "render_png":
        return render_png(request["path"], request.get("width", 320), request.get("height", 240), request.get("samples", 16))
    if cmd == "check_support":
        return check_support()
    if cmd == "shutdown":
        STATE["stopping"] = True
        return {"stopping": True}
    raise BridgeError("bad_request", f"unknown command {json.dumps(cmd)}")


def run_script(code):
    if not isinstance(code, str):
        raise BridgeError("bad_request", "run_script needs the script's Python source as code")
    try:
        exec(compile(code, "<outside script>", "exec"), {"bpy": bpy, "__name__": "__outside_script__"})
    except Exception as error:
        raise BridgeError("script_failed", f"the script raised {type(error).__name__}: {error}")


def answer(line):
    request_id = None
    try:
        try:
            request = json.loads(line)
        except ValueError as error:
            raise BridgeError("bad_request", f"a request is one JSON object per line: {error}")
        if not isinstance(request, dict):
            raise BridgeError("bad_request", "a request is a JSON object with an id and a cmd")
        request_id = request.get("id")
        try:
            return {"id": request_id, "ok": True, "result": handle(request)}
        except KeyError as error:
            raise BridgeError("bad_request", f"the request lacks the field {error}")
    except BridgeError as error:
        return {"id": request_id, "ok": False, "error": {"code": error.code, "message": str(error), "details": error.details}}
    except Exception as error:  # a bug or a bpy failure: report it, keep serving
        traceback.print_exc()
        return {"id": request_id, "ok": False, "error": {"code": "failed", "message": f"{type(error).__name__}: {error}", "details": {}}}


def serve(path):
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path + ".tmp")
    os.chmod(path + ".tmp", 0o600)
    server.listen(8)
    # Appear under the real name only once listening, so a client that connects finds a ready bridge.
    os.replace(path + ".tmp", path)
    buffers = {}
    print(f"cowork bridge listening on {path}", flush=True)
    while True:
        readable, _, _ = select.select([server] + list(buffers), [], [], 5.0)
        for sock in readable:
            if sock is server:
                client, _ = server.accept()
                buffers[client] = b""
                continue
            try:
                data = sock.recv(1 << 16)
            except OSError:
                data = b""
            if not data:
                buffers.pop(sock, None)
                sock.close()
                continue
            buffers[sock] += data
            while b"\n" in buffers.get(sock, b""):
                line, rest = buffers[sock].split(b"\n", 1)
                buffers[sock] = rest
                if not line.strip():
                    continue
                try:
                    sock.sendall((json.dumps(answer(line)) + "\n").encode("utf-8"))
                except OSError:
                    buffers.pop(sock, None)
                    sock.close()
                    break
                if STATE["stopping"]:
                    server.close()
                    os.unlink(path)
                    return


def main():
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    parser = argparse.ArgumentParser(prog="bridge.py")
    parser.add_argument("--socket", required=True)
    args = parser.parse_args(argv)
    if not bpy.data.filepath:
        clear_scene()
    try:
        serve(args.socket)
    except OSError as error:
        # Blender ends a --python script's uncaught error with exit code 0; say why, and fail.
        print(f"cowork bridge could not listen on {args.socket}: {error}", file=sys.stderr, flush=True)
        sys.exit(3)


main()
