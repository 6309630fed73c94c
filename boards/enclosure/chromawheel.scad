// ChromaWheel enclosure: a round stack of four printed parts, parametric in the ring, the
// board and the encoder. Units are millimetres. Render one part at a time for printing:
//
//   openscad -o base.stl -D 'part="base"' -D 'ring_leds=24' -D 'board="qtpy"' chromawheel.scad
//
// From the bottom up (README.md in this folder has the assembly and the print settings):
//   base           a tray: floor, round wall, a cradle holding the board with its USB end at
//                  12 o'clock, an opening in the wall for the USB plug, three screw bosses,
//                  two holes for the MIDI jacks
//   encoder_mount  a plate with the encoder's bushing hole and anti-rotation slot; the
//                  encoder (or the KY-040 module) hangs under it, above the board
//   ring_holder    a disc with an annular groove the LED ring drops into, LEDs up, flush
//                  with the top; a hole in the middle for the encoder's nut
//   knob           (printed separately) a knob for the encoder's 6 mm D shaft, printed top
//                  face down, its bore up
//   faceplate      a thin translucent disc over the ring with the shaft hole. The 12 note
//                  labels are a separate paper face printed from the board file
//                  (`chromawheel board faceplate BOARD -o face.svg`, at 1:1, cut on its
//                  dashed circle): it lies in a shallow recess in the faceplate's top, the
//                  LEDs shining up through the print and the paper. paper_side = "under"
//                  puts the recess in the underside instead, the paper sandwiched between
//                  the ring holder and the faceplate (protected, but the labels are then
//                  read through the plastic: print the faceplate in clear PETG).
// Three M2.5 screws through the faceplate, the ring holder and the encoder mount, driven into
// pilot holes in the base's wall, hold the stack together (no snap fits, no glue; the board
// needs a strip of foam tape or a dot of hot glue on its supports).
// Everything prints flat without supports, each part in the orientation it is written in
// (with paper_side = "under" the faceplate comes out top face down, its recess up).

/* [What to render] */
part = "all";          // all | base | encoder_mount | ring_holder | faceplate | knob
ring_leds = 12;        // 12 | 16 | 24 | 60: picks the ring's size from RINGS below
board = "pico";        // pico | qtpy (or qtpy_rp2040) | esp32: picks the footprint from BOARDS
encoder = "ec11";      // ec11 (a bare encoder, wires soldered on) | ky040 (the module)
headers = false;       // true: a board with pin headers fitted (the Pico H, a Pico with
                       // headers soldered on): the base makes room for the pins and the wires
                       // soldered or pushed onto them under the board
display = true;        // the OLED: a window in the base's wall at 6 o'clock and rails that
                       // hold the module behind it (false: a plain wall)
buzzer = true;         // the piezo: a pocket in the base's floor with sound holes
jacks = true;          // the MIDI jacks: two holes through the base's wall (false: a plain wall)

/* [Ring: 0 = from the table] */
ring_od = 0;           // outer diameter of the ring's PCB
ring_id = 0;           // inner diameter
ring_thick = 3.6;      // PCB (1.6) + LEDs (1.6) and a little: the groove's depth

/* [Fit and walls] */
clearance = 0.4;       // per side, between a part and what fits into it
wall = 1.6;            // the thinnest wall: around the screw holes, the cradle
floor_t = 2.0;         // the base's floor
plate_t = 2.4;         // the encoder mount (the EC11's bushing takes panels up to ~4 mm)
holder_floor = 1.2;    // under the ring
face_t = 2.0;          // the faceplate: 2 mm of white/natural PLA or PETG diffuses the LEDs
paper_side = "top";    // top | under: which face of the faceplate has the paper's recess
paper_depth = 0.4;     // the recess: paper 0.1, photo paper 0.25, thin card 0.3
paper_d = 0;           // the paper face's cut diameter; 0 = what `chromawheel board faceplate`
                       // draws: the ring's outer diameter + 2 x (7 label gap + 12 margin)
explode = 10;          // the gap between the parts when part = "all"

/* [The capacitor and the ring's wires] */
// The 1000 uF can is soldered across the ring's 5V and GND pads on the ring's back and goes
// down, with the ring's three wires, through a channel cut through the ring holder and the
// encoder mount at wire_angle into the base's cavity.
cap_d = 8.0;           // the can's diameter (1000 uF 6.3-10 V: 8 mm)
cap_h = 11.5;          // its height, without the leads

/* [The OLED: a 0.96" SSD1306 module, standing behind the window] */
oled_pcb = [27.5, 28.0];   // width, height (generic 4-pin modules 27 x 27.5; Adafruit 326 28 x 27)
oled_pcb_t = 1.6;
oled_glass = [26.8, 19.4, 1.6];   // the glass panel on the PCB's front: width, height, thickness
oled_glass_z = 4.5;    // the glass's lower edge above the PCB's lower edge (pins at the top)
oled_view = [23.0, 12.0];  // the window: the 21.7 x 10.9 mm active area and a margin

/* [The piezo and the level shifter] */
piezo_d = 12.2;        // Adafruit 160 (PS1240): 12.2 mm across, 6.5 mm tall
piezo_angle = 330;     // beside the board's far end, right of the OLED
shifter = [20.5, 8.5]; // the 74AHCT125 in DIP-14 (19.3 x 6.35 body, 7.6 mm over the pins)

/* [The MIDI jacks: two 3.5 mm TRS panel sockets with an M6 thread] */
// Each goes through the wall from the inside, its thread through a thin panel left in the
// wall, its nut and washer outside; its body sits in a seat cut into the wall from inside.
jack_hole = 6.2;       // the M6 thread (Thonkiconn PJ366ST) and a little
jack_panel = 2.0;      // the wall left for the thread (the PJ366ST's nut takes up to 2.5 mm)
jack_body = [10.0, 11.0];  // behind the panel: across (square), and how deep with its tags
jack_angles = [20, 48];    // MIDI IN, MIDI OUT: degrees anticlockwise from 3 o'clock
jack_z = 11.0;         // the sockets' axis above the bed

/* [Screws: M2.5, self-tapping into the base] */
screw_d = 2.5;
screw_pilot = 2.2;     // the pilot hole in the base's wall
screw_head_d = 5.0;    // pan head: on the faceplate, outside the paper (paper_side = "top")
screw_angles = [0, 120, 240];    // degrees anticlockwise from 3 o'clock, USB at 90 (12 o'clock),
                                 // the OLED's window at 270 (6 o'clock) between two

/* [The encoder: EC11, M7x0.75 bushing, 6 mm shaft] */
bushing_d = 7.0;
bushing_len = 7.0;     // from the mounting face
shaft_d = 6.0;
shaft_len = 20.0;      // from the mounting face: 15, 20, 25 and 30 are sold (PEC11R-4220F: 20)
knob_bore = 8.0;       // the least shaft a knob grips (push-on knobs: 8-10 mm bores)
washer_d = 12.0;       // the washer under the M7 nut (the nut is 2 mm, the washer 0.5)
nut_h = 2.5;           // nut and washer
tab_w = 2.0;           // the anti-rotation slot: its width, and how far out from the axis it
tab_reach = 8.0;       // goes (where the lug sits varies by maker; or break the lug off)
wire_angle = 210;      // where the ring's pads are: the channel down to the board

/* [The knob: for the encoder's flatted (D) shaft] */
shaft_flat = 4.5;      // across the flat (PEC11R-4220F, EC11 "F" shafts: 6 mm round, 4.5 mm D)
shaft_flat_len = 7.0;  // how far the flat runs down from the shaft's end
knob_d = 20.0;         // across (the parts list: 15-25 mm)
knob_top = 3.0;        // solid above the shaft's end
knob_fit = 0.15;       // per side in the bore: a push fit (raise it if the knob will not go on)
knob_gap = 1.0;        // between the knob's skirt and the faceplate, pushed fully on
knob_flutes = 18;      // grip grooves round the side

$fa = 6;               // facets: -D '$fa=2' -D '$fs=0.4' for smoother curves (slower)
$fs = 0.8;

// ---------------------------------------------------------------------------------------
// Tables

// Adafruit NeoPixel rings: LEDs, outer and inner diameter (the same figures as
// host_tools/builds/faceplate.py's RING_SIZES). 60 is four "1/4 60" arcs soldered into a ring.
RINGS = [[12, 37.0, 23.3], [16, 44.5, 31.75], [24, 65.6, 52.3], [60, 158.0, 145.0]];

// name, PCB length (USB end to far end), width, PCB thickness, how far the USB connector
// sticks out past the PCB's edge, room under the PCB (solder tails, or the ESP32 board's
// pin headers with wires soldered to them), room above it (parts and wires), the USB
// opening (width, height: a cable's overmould has to go in), the connector's centre above
// the PCB's top, supports ("pegs" in the mounting holes, or "ledges" under the short ends).
BOARDS = [
    ["pico",  51.0, 21.0, 1.0, 1.3,  2.0, 6.0, 13.0, 9.0, 1.5, "pegs"],
    ["qtpy",  21.8, 17.8, 1.6, 0.8,  2.0, 6.0, 13.0, 8.0, 1.6, "ledges"],
    ["esp32", 55.0, 28.0, 1.6, 1.6, 11.0, 6.0, 13.0, 9.0, 1.5, "ledges"],
];
// With headers fitted: the header's plastic (2.5 mm) and its pins (6 mm) under the PCB, and
// a wire's housing or solder joint on each pin: the room under the board becomes this.
HEADER_UNDER = 11.0;
PICO_HOLES = [[-5.7, -23.5], [5.7, -23.5], [-5.7, 23.5], [5.7, 23.5]];  // 2.1 mm, M2
PICO_HOLE_D = 2.1;
LEDGE = 1.5;           // the ledges' width under the PCB's short ends

// name, depth below the mounting face (body, pins, the wires' bends), reach from the axis in
// plan (EC11: its 12.5 x 13.5 body and pins; KY-040: the 32 x 19 mm module with the shaft
// about 9 mm from one end, its right-angle header pins at the other, wires soldered on:
// Dupont housings need 15 mm more)
ENCODERS = [["ec11", 14.0, 12.0], ["ky040", 11.0, 31.0]];

function row(table, key, what) = let(i = search([key], table)[0])
    assert(i != [] && !is_undef(i),
           str(what, " = ", key, " is not one of ", [for (r = table) r[0]]))
    table[i];

// ---------------------------------------------------------------------------------------
// Derived sizes

board_key = board == "qtpy_rp2040" ? "qtpy" : board;
B = row(BOARDS, board_key, "board");
E = row(ENCODERS, encoder, "encoder");
RING = ring_od > 0 ? [0, ring_od, ring_id] : row(RINGS, ring_leds, "ring_leds");
OD = RING[1];
ID = RING[2];
assert(OD > ID && ID > 0, "ring_od must be larger than ring_id (set both)");

pcb_l = B[1]; pcb_w = B[2]; pcb_t = B[3]; usb_over = B[4];
under = headers ? max(B[5], HEADER_UNDER) : B[5]; above = B[6]; usb_w = B[7]; usb_h = B[8]; usb_z = B[9]; supports = B[10];
enc_depth = E[1]; enc_reach = E[2];

r_pocket = OD / 2 + clearance;            // the groove's outer wall
r_boss = ID / 2 - clearance;              // its inner wall: the ring's hole locates on it
paper = paper_d > 0 ? paper_d : OD + 2 * (7 + 12);
r_paper = paper / 2 + clearance;
hole = screw_d + 2 * clearance;           // screw clearance hole
boss_r = hole / 2 + wall;                 // the screw's boss, inside the wall
rim = 2 * boss_r;                         // the base's wall: bosses and all

// the board's pocket in plan (the connector's overhang included), and the circle it needs
pocket_l = pcb_l + usb_over + 2 * clearance;
pocket_w = pcb_w + 2 * clearance;
r_board = sqrt(pow(pocket_l / 2, 2) + pow(pocket_w / 2, 2));
r_cavity_min = max(r_board, enc_reach + clearance);

function roundup(x) = ceil(2 * x) / 2;
function join(v, i = 0) = i >= len(v) ? "" : str(v[i], i + 1 < len(v) ? "," : "", join(v, i + 1));
r_out = roundup(max(
    r_cavity_min + rim,
    r_pocket + 0.8 + hole / 2 + boss_r,
    paper_side == "top" ? r_paper + 0.5 + screw_head_d / 2 + boss_r
                        : r_paper + 0.8 + hole / 2 + boss_r));
r_in = r_out - rim;                       // the base's cavity
r_screw = r_out - boss_r;

// the board: its USB end towards +y (12 o'clock), the pocket's corners at the wall
pocket_top = sqrt(r_in * r_in - pow(pocket_w / 2, 2));
usb_face = pocket_top - clearance;        // the connector's face
pcb_y = usb_face - usb_over - pcb_l / 2;  // the PCB's centre
pcb_z = floor_t + under;                  // the PCB's underside
cavity_h = under + pcb_t + above + enc_depth;
oled_h = oled_pcb[1] + 1.0;               // the module standing on the floor, and a gap
base_h = floor_t + max(cavity_h, display ? oled_h : 0);
usb_c = pcb_z + pcb_t + usb_z;            // the connector's centre height
usb_bottom = max(floor_t, usb_c - usb_h / 2);

holder_t = holder_floor + ring_thick;
center_d = washer_d + 2 * clearance;      // the ring holder's hole for the nut and washer
bushing_hole = bushing_d + 2 * clearance;
bushing_above = bushing_len - plate_t;    // the bushing's top above the mount's top
face_hole = bushing_above > holder_t ? bushing_hole : shaft_d + 2 * clearance;
knob_room = shaft_len - plate_t - holder_t - face_t;   // the shaft above the faceplate
stack = face_t + holder_t + plate_t;      // what a screw goes through
// the knob: a D bore as deep as the shaft above the faceplate less the gap, its flat as far
// down as the shaft's flat runs (less 1 mm, so the shaft's round part never meets it)
knob_bore_d = shaft_d + 2 * knob_fit;
knob_bore_flat = shaft_flat + 2 * knob_fit;   // across the bore's flat
knob_bore_depth = knob_room - knob_gap;
knob_flat_depth = min(knob_bore_depth, shaft_flat_len - 1.0);
knob_h = knob_bore_depth + knob_top;
screw_len = ceil((stack + 6) / 2) * 2;    // and at least 6 mm into the base
wire_r = (OD + ID) / 4;

// the channel for the capacitor and the wires: a sector round wire_angle from the ring's
// inner edge to past its outer edge, as wide as the can and its clearance both ways
chan_r0 = r_boss;
chan_r1 = max(r_pocket + 1.0, r_boss + cap_d + 2 * clearance);
chan_deg = 2 * asin((cap_d / 2 + clearance) / chan_r0) + 8;   // the can lies across it
cap_below = cap_h + 1.0 - (holder_t + plate_t);     // how far the can hangs into the base

// the OLED: its PCB's front against a flat inside the wall at 6 o'clock
oled_plane = sqrt(r_in * r_in - pow(oled_pcb[0] / 2 + 3, 2)) - 0.5;   // the flat's distance
oled_window_z = floor_t + oled_glass_z + oled_glass[1] / 2;            // the window's centre
rail = 2.0;                               // the rails' width each side of the PCB
// the piezo's pocket in the floor
collar_r = piezo_d / 2 + clearance + 1.2;
piezo_r = r_in - collar_r - 0.5;
piezo_xy = [piezo_r * cos(piezo_angle), piezo_r * sin(piezo_angle)];
// the level shifter's bay, beside the board on the left
shifter_xy = [-(pocket_w / 2 + wall + 2 + shifter[1] / 2 + 1), 0];

assert(ID / 2 - clearance - center_d / 2 >= 1.2,
       "the ring's hole is too small for the encoder's nut and washer");
assert(nut_h < holder_t, "the nut does not fit under the ring holder");
assert(knob_room >= knob_bore,
       str("shaft_len = ", shaft_len, " leaves only ", knob_room, " mm above the faceplate, ",
           "a knob needs ", knob_bore, ": use an encoder with a longer shaft (20 mm)"));
assert(chan_r1 < r_screw - hole / 2 - wall, "the capacitor's channel runs into a screw");
assert(shaft_flat < shaft_d && knob_d >= knob_bore_d + 6, "the knob's bore does not fit in it");
// the board's cradle in plan, and what stands on the floor beside it
frame = [-pocket_w / 2 - wall, pocket_w / 2 + wall, pcb_y - pcb_l / 2 - clearance - wall];
function gap_to_frame(x, y) = let(dx = max(frame[0] - x, 0, x - frame[1]),
                                  dy = max(frame[2] - y, 0)) sqrt(dx * dx + dy * dy);
piezo_gap = gap_to_frame(piezo_xy[0], piezo_xy[1]) - collar_r;
oled_gap = oled_plane - oled_pcb_t - clearance - 1.2 + frame[2];
// The base's bridges as printed: the USB opening's top edge, the OLED window's, and the top
// of the glass's recess behind the window (what a slicer spans without support, in mm)
bridge_usb = usb_w;
bridge_window = display ? oled_view[0] : 0;
bridge_glass = display ? oled_glass[0] + 2 * clearance : 0;
shifter_angle = atan2(shifter_xy[1], shifter_xy[0]);
// the jacks: the seat round a body's square face, the body's back corners clear of the cradle
jack_seat = jack_body[0] / sqrt(2) + clearance;
jack_back = r_out - jack_panel - jack_body[1];        // the body's back, from the axis
function jack_corners(a) = [for (s = [-1, 1]) [jack_back * cos(a) - s * jack_body[0] / 2 *
                            sin(a), jack_back * sin(a) + s * jack_body[0] / 2 * cos(a)]];
jack_gap = min([for (a = jack_angles) for (c = jack_corners(a)) gap_to_frame(c[0], c[1])]);
shifter_reach = norm([abs(shifter_xy[0]) + shifter[1] / 2 + 1.2,
                      abs(shifter_xy[1]) + shifter[0] / 2 + 1.2]);
assert(!buzzer || piezo_gap > 0.5, str("the piezo's collar runs into the board's cradle (",
                                       piezo_gap, " mm)"));
assert(!display || oled_gap > 0.5, str("the OLED runs into the board's cradle (", oled_gap,
                                       " mm)"));
assert(shifter_reach < r_in, "the level shifter's bay does not fit beside the board");
assert(usb_c + usb_h / 2 < base_h, "the USB opening does not fit in the base");
assert(!jacks || jack_gap > 0.5, str("a MIDI jack runs into the board's cradle (", jack_gap,
                                     " mm)"));
assert(!jacks || (jack_z - jack_seat > floor_t && jack_z + jack_seat < base_h),
       "the MIDI jacks' seats do not fit in the base's wall");

echo(str("CHROMAWHEEL part=", part, " board=", board_key, " encoder=", encoder,
         " ring_od=", OD, " ring_id=", ID, " ring_thick=", ring_thick,
         " outer_d=", 2 * r_out, " cavity_d=", 2 * r_in, " pocket_od=", 2 * r_pocket,
         " pocket_id=", 2 * r_boss, " paper_d=", paper, " recess_d=", 2 * r_paper,
         " paper_side=", paper_side, " pcb_l=", pcb_l, " pcb_w=", pcb_w, " pcb_t=", pcb_t,
         " pcb_y=", pcb_y, " pcb_z=", pcb_z, " usb_face=", usb_face, " usb_z=", usb_c,
         " usb_w=", usb_w, " base_h=", base_h, " floor_t=", floor_t, " plate_t=", plate_t,
         " holder_t=", holder_t, " holder_floor=", holder_floor, " face_t=", face_t,
         " face_hole=", face_hole, " bushing_hole=", bushing_hole, " center_d=", center_d,
         " screw_r=", r_screw, " screw_len=", screw_len, " knob_room=", knob_room,
         " wire_r=", wire_r, " wire_angle=", wire_angle, " headers=", headers,
         " under=", under, " cap_d=", cap_d, " cap_h=", cap_h, " chan_r0=", chan_r0,
         " chan_r1=", chan_r1, " chan_deg=", chan_deg, " cap_below=", cap_below,
         " shaft_len=", shaft_len, " knob_bore=", knob_bore, " shaft_d=", shaft_d,
         " shaft_flat=", shaft_flat, " shaft_flat_len=", shaft_flat_len, " knob_d=", knob_d,
         " knob_h=", knob_h, " knob_bore_d=", knob_bore_d, " knob_bore_flat=", knob_bore_flat,
         " knob_bore_depth=", knob_bore_depth, " knob_flat_depth=", knob_flat_depth,
         " display=", display, " oled_plane=", oled_plane, " oled_window_z=", oled_window_z,
         " oled_view_w=", oled_view[0], " oled_view_h=", oled_view[1],
         " oled_pcb_w=", oled_pcb[0], " oled_pcb_h=", oled_pcb[1], " oled_pcb_t=", oled_pcb_t,
         " oled_glass_t=", oled_glass[2], " cavity_h=", cavity_h,
         " buzzer=", buzzer, " piezo_d=", piezo_d, " piezo_x=", piezo_xy[0],
         " piezo_y=", piezo_xy[1], " shifter_x=", shifter_xy[0], " shifter_y=", shifter_xy[1],
         " shifter_l=", shifter[0], " shifter_w=", shifter[1], " piezo_gap=", piezo_gap,
         " oled_gap=", oled_gap, " shifter_reach=", shifter_reach, " collar_r=", collar_r,
         " screw_angles=", join(screw_angles), " piezo_angle=", piezo_angle,
         " shifter_angle=", shifter_angle, " bridge_usb=", bridge_usb,
         " bridge_window=", bridge_window, " bridge_glass=", bridge_glass,
         " jacks=", jacks, " jack_in_angle=", jack_angles[0], " jack_out_angle=",
         jack_angles[1], " jack_z=", jack_z, " jack_hole=", jack_hole, " jack_panel=",
         jack_panel, " jack_seat=", jack_seat, " jack_gap=", jack_gap));

// ---------------------------------------------------------------------------------------
// Helpers

// a cylinder whose polygon never cuts inside radius r (for holes and pockets)
module hole_cyl(r, h) {
    n = max(8, ceil(min(360 / $fa, 2 * PI * r / $fs)));     // openscad's own count
    cylinder(r = r / cos(180 / n), h = h, $fn = n);
}

module screw_holes(d, z0, h) {
    for (a = screw_angles)
        translate([r_screw * cos(a), r_screw * sin(a), z0]) hole_cyl(d / 2, h);
}

// the channel for the capacitor and the ring's wires, through a part h thick
module wire_hole(h) {
    rotate(wire_angle - chan_deg / 2)
        rotate_extrude(angle = chan_deg)
            translate([chan_r0, -1]) square([chan_r1 - chan_r0, h + 2]);
}

// a hole along the x axis, r wide, from x0 to x1, with a 45 degree roof (a teardrop): it
// prints without support, no face of it flat over air
module teardrop_x(r, x0, x1) {
    translate([x0, 0, 0]) rotate([0, 90, 0]) linear_extrude(height = x1 - x0)
        rotate(180) hull() {
            hole_cyl_2d(r);
            translate([r * sqrt(2) / 2, 0]) rotate(45) square(r, center = true);
        }
}

module hole_cyl_2d(r) {
    n = max(8, ceil(min(360 / $fa, 2 * PI * r / $fs)));
    circle(r = r / cos(180 / n), $fn = n);
}

// the jacks' holes through the wall at jack_angles: the seat from the inside up to the panel,
// the thread's hole through the panel
module jack_holes() {
    for (a = jack_angles) rotate(a) translate([0, 0, jack_z]) {
        teardrop_x(jack_seat, r_in - 1, r_out - jack_panel);
        teardrop_x(jack_hole / 2, r_in, r_out + 1);
    }
}

// a small notch in the top of the rim at 12 o'clock: line up C (and the USB end) with it
module twelve_mark(z_top) {
    translate([-0.6, r_out - 0.8, z_top - 0.6]) cube([1.2, 2, 1]);
}

// ---------------------------------------------------------------------------------------
// Parts

module cradle() {
    frame_h = under + pcb_t + 0.6;
    translate([0, pcb_y, floor_t]) {
        // a low frame around the pocket, open at the USB end
        difference() {
            translate([-pocket_w / 2 - wall, -pcb_l / 2 - clearance - wall, 0])
                cube([pocket_w + 2 * wall, pocket_l + wall, frame_h]);
            translate([-pocket_w / 2, -pcb_l / 2 - clearance, -1])
                cube([pocket_w, pocket_l + wall + 1, frame_h + 2]);
        }
        if (supports == "pegs") {
            for (p = PICO_HOLES) translate([p[0], p[1], 0]) {
                cylinder(d = 4.0, h = under);
                cylinder(d = PICO_HOLE_D - 0.4, h = under + pcb_t);   // locating pegs
            }
        } else {
            for (s = [-1, 1])
                translate([-pcb_w / 2, s > 0 ? pcb_l / 2 - LEDGE : -pcb_l / 2, 0])
                    cube([pcb_w, LEDGE, under]);
        }
    }
}

module base() {
    difference() {
        union() {
            difference() {
                cylinder(r = r_out, h = base_h);
                translate([0, 0, floor_t]) hole_cyl(r_in, base_h);
            }
            cradle();
            if (display) oled_seat();
            if (buzzer) translate([piezo_xy[0], piezo_xy[1], floor_t])
                difference() {            // a collar the piezo presses into
                    cylinder(r = collar_r, h = 2.0);
                    translate([0, 0, -1]) hole_cyl(piezo_d / 2 + clearance, 4);
                }
            // the level shifter's bay: a low rim it sits in on a strip of foam tape
            translate([shifter_xy[0], shifter_xy[1], floor_t]) difference() {
                translate([-shifter[1] / 2 - 1.2, -shifter[0] / 2 - 1.2, 0])
                    cube([shifter[1] + 2.4, shifter[0] + 2.4, 1.2]);
                translate([-shifter[1] / 2, -shifter[0] / 2, -1])
                    cube([shifter[1], shifter[0], 3.2]);
            }
        }
        if (display) oled_window();
        if (jacks) jack_holes();
        if (buzzer) for (a = [0, 120, 240])         // sound holes under the piezo
            translate([piezo_xy[0] + 3 * cos(a), piezo_xy[1] + 3 * sin(a), -1])
                cylinder(d = 2.0, h = floor_t + 2);
        // the opening for the USB plug, through the wall at 12 o'clock
        translate([-usb_w / 2, usb_face - 1, usb_bottom])
            cube([usb_w, r_out - usb_face + 2, usb_c + usb_h / 2 - usb_bottom]);
        screw_holes(screw_pilot, floor_t, base_h);
    }
}

// the OLED at 6 o'clock: the wall filled to a flat at oled_plane, the glass in a recess in
// it, the module's PCB against it, held by two rails it slides down between
module oled_seat() {
    w = oled_pcb[0] / 2 + clearance;
    difference() {
        intersection() {
            translate([-w - rail, -r_in - 1, 0]) cube([2 * (w + rail), r_in + 1 - oled_plane
                + oled_pcb_t + clearance + 1.2, base_h]);
            cylinder(r = r_in + 0.01, h = base_h);
        }
        // the PCB's slot between the rails' lips, open at the top
        translate([-w, -oled_plane, floor_t])
            cube([2 * w, oled_pcb_t + clearance, base_h]);
        // between the lips, the parts on the module's back
        translate([-w + 1.5, -oled_plane + oled_pcb_t + clearance - 0.01, floor_t])
            cube([2 * w - 3, 5, base_h]);
    }
}

module oled_window() {
    // the glass's recess in the flat, then the window through the wall
    translate([-oled_glass[0] / 2 - clearance, -oled_plane - oled_glass[2] - clearance,
               floor_t + oled_glass_z - clearance])
        cube([oled_glass[0] + 2 * clearance, oled_glass[2] + clearance + 0.01,
              oled_glass[1] + 2 * clearance]);
    translate([-oled_view[0] / 2, -r_out - 1, oled_window_z - oled_view[1] / 2])
        cube([oled_view[0], r_out + 1 - oled_plane, oled_view[1]]);
}

module encoder_mount() {
    difference() {
        cylinder(r = r_out, h = plate_t);
        translate([0, 0, -1]) hole_cyl(bushing_hole / 2, plate_t + 2);
        // the anti-rotation slot, towards 12 o'clock
        translate([-tab_w / 2, 0, -1]) cube([tab_w, tab_reach, plate_t + 2]);
        wire_hole(plate_t);
        screw_holes(hole, -1, plate_t + 2);
    }
}

module ring_holder() {
    hollow_in = center_d / 2 + wall;
    hollow_out = r_boss - 2 * wall;
    difference() {
        cylinder(r = r_out, h = holder_t);
        // the groove the ring sits in
        translate([0, 0, holder_floor]) difference() {
            hole_cyl(r_pocket, ring_thick + 1);
            translate([0, 0, -1]) cylinder(r = r_boss, h = ring_thick + 3);
        }
        // the encoder's nut and washer
        translate([0, 0, -1]) hole_cyl(center_d / 2, holder_t + 2);
        // inside a big ring, the middle is only a floor (the boss keeps a 2-wall rim)
        if (hollow_out - hollow_in > 4)
            translate([0, 0, holder_floor]) difference() {
                cylinder(r = hollow_out, h = holder_t);
                translate([0, 0, -1]) cylinder(r = hollow_in, h = holder_t + 2);
            }
        wire_hole(holder_t);
        screw_holes(hole, -1, holder_t + 2);
        twelve_mark(holder_t);
    }
}

// in the stack's orientation, the paper's recess on top (or underneath)
module faceplate_up() {
    difference() {
        cylinder(r = r_out, h = face_t);
        translate([0, 0, -1]) hole_cyl(face_hole / 2, face_t + 2);
        if (paper_side == "top")
            translate([0, 0, face_t - paper_depth]) hole_cyl(r_paper, paper_depth + 1);
        else
            translate([0, 0, -1]) hole_cyl(r_paper, paper_depth + 1);
        screw_holes(hole, -1, face_t + 2);
        twelve_mark(face_t);
    }
}

// as printed: the recess up, so top face down when the paper goes underneath
module faceplate() {
    if (paper_side == "top") faceplate_up();
    else translate([0, 0, face_t]) mirror([0, 0, 1]) faceplate_up();
}

// The knob as printed: its top face on the bed, the bore opening up (no bridge, no
// support); flutes round the side for grip, a chamfer at the bore's mouth to start it on.
module knob() {
    difference() {
        cylinder(d = knob_d, h = knob_h, $fn = 96);
        for (i = [0 : knob_flutes - 1])
            rotate(i * 360 / knob_flutes) translate([knob_d / 2 + 0.3, 0, -1])
                cylinder(d = 2.0, h = knob_h + 2, $fn = 16);
        translate([0, 0, knob_top]) knob_bore();
        translate([0, 0, knob_h - 0.8]) cylinder(d1 = knob_bore_d, d2 = knob_bore_d + 1.6,
                                                 h = 0.81, $fn = 48);
    }
}

// the bore from the shaft's end (z = 0) to the knob's mouth: the D where the shaft is flat,
// round below it; the flat towards +x
module knob_bore() {
    intersection() {
        hole_cyl(knob_bore_d / 2, knob_flat_depth + 0.01);
        translate([-knob_bore_d, -knob_bore_d, -1])
            cube([knob_bore_d + knob_bore_flat - knob_bore_d / 2, 2 * knob_bore_d,
                  knob_flat_depth + 2]);
    }
    translate([0, 0, knob_flat_depth]) hole_cyl(knob_bore_d / 2, knob_bore_depth
                                                - knob_flat_depth + 1);
}

module assembly() {
    color("dimgray") base();
    translate([0, 0, base_h + explode]) color("silver") encoder_mount();
    translate([0, 0, base_h + plate_t + 2 * explode]) color("gray") ring_holder();
    translate([0, 0, base_h + plate_t + holder_t + 3 * explode])
        color("white", 0.6) faceplate_up();
}

if (part == "base") base();
else if (part == "encoder_mount") encoder_mount();
else if (part == "ring_holder") ring_holder();
else if (part == "faceplate") faceplate();
else if (part == "knob") knob();
else if (part == "all") assembly();
else assert(false, str("unknown part \"", part,
                       "\": all, base, encoder_mount, ring_holder, faceplate, knob"));
