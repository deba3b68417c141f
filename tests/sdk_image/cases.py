"""tf.image cases (resizes, windows, rotations, NMS, colour, metrics) shared by the TensorFlow fixture
generator (fixtures/generate_tf_fixtures.py) and test_image_tf.py.

Same layout as sdk_extra/image_cases.py: (name, fn(tf, *inputs) -> tensor or tuple of tensors, input specs,
differentiate?). ERROR_CASES record build-time errors, RUN_ERROR_CASES the kernel's message at run time.
"""
from __future__ import annotations

from sdk_extra.image_cases import f32, f64, u8, i, make_inputs, error_outcome  # noqa: F401


def _fed(tf, shape):
    """Zeros fed through a placeholder of the same shape (so no constant folding decides the outcome)."""
    return tf.placeholder_with_default(tf.zeros(shape), shape)


def _no_grad(tf, fn):
    """tf.gradients through fn of a fed image (TF has no gradient for some image ops)."""
    x = tf.placeholder(tf.float32, [4, 4, 3])
    return tf.gradients(fn(x), x)


def _rot(k):
    return lambda tf, x: tf.image.rot90(x, k)


def _nms(**kw):
    return lambda tf, b, s: tf.image.non_max_suppression(b, s, 6, **kw)


RESIZE = [
    ("bicubic_up", lambda tf, x: tf.image.resize_bicubic(x, [7, 9]), [f32(2, 4, 5, 3)], True),
    ("bicubic_down", lambda tf, x: tf.image.resize_bicubic(x, [3, 4]), [f32(1, 7, 9, 2)], True),
    ("bicubic_align", lambda tf, x: tf.image.resize_bicubic(x, [7, 3], align_corners=True), [f32(1, 4, 5, 2)], True),
    ("bicubic_half_pixel_up", lambda tf, x: tf.image.resize_bicubic(x, [9, 11], half_pixel_centers=True),
     [f32(1, 4, 5, 2)], True),
    ("bicubic_half_pixel_down", lambda tf, x: tf.image.resize_bicubic(x, [3, 2], half_pixel_centers=True),
     [f64(2, 8, 7, 1)], True),
    ("bicubic_uint8", lambda tf, x: tf.image.resize_bicubic(x, [8, 6]), [u8(1, 5, 5, 3)], False),
    ("area_down", lambda tf, x: tf.image.resize_area(x, [3, 4]), [f32(2, 7, 9, 3)], False),
    ("area_up", lambda tf, x: tf.image.resize_area(x, [7, 11]), [f32(1, 3, 4, 2)], False),
    ("area_align", lambda tf, x: tf.image.resize_area(x, [4, 3], align_corners=True), [f32(1, 7, 5, 1)], False),
    ("area_uint8_odd", lambda tf, x: tf.image.resize_area(x, [5, 3]), [u8(1, 9, 7, 3)], False),
    ("area_same", lambda tf, x: tf.image.resize_area(x, [4, 5]), [f64(1, 4, 5, 1)], False),
    ("resize_images_bicubic", lambda tf, x: tf.image.resize_images(x, [6, 5], method=2), [f32(4, 3, 2)], True),
    ("resize_images_area", lambda tf, x: tf.image.resize_images(x, [2, 3], method=3), [u8(2, 5, 7, 1)], False),
    ("resize_images_area_str", lambda tf, x: tf.image.resize_images(x, [3, 3], method="area"), [f32(6, 6, 1)],
     False),
]

WINDOWS = [
    ("crop_bbox_3d", lambda tf, x: tf.image.crop_to_bounding_box(x, 1, 2, 3, 4), [f32(5, 7, 2)], True),
    ("crop_bbox_4d_u8", lambda tf, x: tf.image.crop_to_bounding_box(x, 0, 1, 4, 2), [u8(2, 4, 5, 3)], False),
    ("pad_bbox_3d", lambda tf, x: tf.image.pad_to_bounding_box(x, 1, 2, 6, 7), [f32(3, 4, 2)], True),
    ("pad_bbox_4d_u8", lambda tf, x: tf.image.pad_to_bounding_box(x, 0, 3, 5, 8), [u8(2, 4, 5, 1)], False),
    ("crop_or_pad_crop", lambda tf, x: tf.image.resize_image_with_crop_or_pad(x, 3, 4), [f32(6, 7, 2)], True),
    ("crop_or_pad_pad", lambda tf, x: tf.image.resize_image_with_crop_or_pad(x, 8, 9), [f32(2, 5, 4, 1)], True),
    ("crop_or_pad_mixed", lambda tf, x: tf.image.resize_with_crop_or_pad(x, 3, 9), [u8(6, 5, 3)], False),
    ("with_pad_wide", lambda tf, x: tf.image.resize_image_with_pad(x, 8, 8), [f32(4, 7, 3)], True),
    ("with_pad_tall_nearest", lambda tf, x: tf.image.resize_image_with_pad(x, 6, 9, method=1),
     [f32(2, 7, 3, 1)], True),
    ("rot90_1", _rot(1), [f32(3, 4, 2)], False),
    ("rot90_2_4d", _rot(2), [f32(2, 3, 5, 1)], False),
    ("rot90_3_u8", _rot(3), [u8(3, 4, 2)], False),
    ("rot90_neg1_4d", _rot(-1), [f64(2, 3, 4, 2)], False),
    ("rot90_0", _rot(0), [f32(3, 4, 1)], False),
    ("transpose_3d", lambda tf, x: tf.image.transpose(x), [f32(3, 5, 2)], True),
    ("transpose_image_4d", lambda tf, x: tf.image.transpose_image(x), [u8(2, 3, 4, 1)], False),
]

NMS = [
    ("nms_basic", _nms(), [f32(40, 4), f32(40)], False),
    ("nms_iou_03", _nms(iou_threshold=0.3), [f32(40, 4), f32(40)], False),
    ("nms_score_thr", _nms(iou_threshold=0.6, score_threshold=0.5), [f32(40, 4), f32(40)], False),
    ("nms_few", lambda tf, b, s: tf.image.non_max_suppression(b, s, 50, 0.7), [f32(12, 4), f32(12)], False),
    ("nms_with_scores_hard", lambda tf, b, s: tf.image.non_max_suppression_with_scores(b, s, 8, 0.4),
     [f32(30, 4), f32(30)], False),
    ("nms_with_scores_soft", lambda tf, b, s: tf.image.non_max_suppression_with_scores(
        b, s, 10, 1.0, score_threshold=0.1, soft_nms_sigma=0.5), [f32(30, 4), f32(30)], False),
    ("nms_with_scores_soft_thr", lambda tf, b, s: tf.image.non_max_suppression_with_scores(
        b, s, 20, 0.5, score_threshold=0.3, soft_nms_sigma=0.2), [f32(25, 4), f32(25)], False),
    ("nms_padded", lambda tf, b, s: tf.image.non_max_suppression_padded(
        b, s, 10, 0.4, pad_to_max_output_size=True), [f32(30, 4), f32(30)], False),
    ("nms_padded_unpadded", lambda tf, b, s: tf.image.non_max_suppression_padded(b, s, 10, 0.4),
     [f32(30, 4), f32(30)], False),
    ("nms_padded_few", lambda tf, b, s: tf.image.non_max_suppression_padded(
        b, s, 12, 0.3, score_threshold=0.6, pad_to_max_output_size=True), [f32(15, 4), f32(15)], False),
    ("nms_padded_batch", lambda tf, b, s: tf.image.non_max_suppression_padded(
        b, s, 7, 0.5, pad_to_max_output_size=True), [f32(3, 20, 4), f32(3, 20)], False),
    ("nms_overlaps", lambda tf, o, s: tf.image.non_max_suppression_overlaps(o, s, 6, 0.6),
     [f32(20, 20), f32(20)], False),
    ("nms_overlaps_thr", lambda tf, o, s: tf.image.non_max_suppression_overlaps(o, s, 10, 0.8, 0.4),
     [f32(20, 20), f32(20)], False),
    ("combined_nms", lambda tf, b, s: tf.image.combined_non_max_suppression(b, s, 4, 10),
     [f32(2, 30, 1, 4, lo=-0.2, hi=1.2), f32(2, 30, 3)], False),
    ("combined_nms_per_class_boxes", lambda tf, b, s: tf.image.combined_non_max_suppression(
        b, s, 3, 20, iou_threshold=0.3, score_threshold=0.2, clip_boxes=False),
     [f32(1, 25, 3, 4, lo=-0.2, hi=1.2), f32(1, 25, 3)], False),
    ("combined_nms_pad_per_class", lambda tf, b, s: tf.image.combined_non_max_suppression(
        b, s, 2, 50, pad_per_class=True), [f32(2, 20, 1, 4), f32(2, 20, 4)], False),
]

COLOUR = [
    ("grayscale_f32", lambda tf, x: tf.image.rgb_to_grayscale(x), [f32(2, 3, 4, 3)], True),
    ("grayscale_u8", lambda tf, x: tf.image.rgb_to_grayscale(x), [u8(5, 3, 3)], False),
    ("grayscale_to_rgb", lambda tf, x: tf.image.grayscale_to_rgb(x), [f32(3, 4, 1)], True),
    ("grayscale_to_rgb_u8", lambda tf, x: tf.image.grayscale_to_rgb(x), [u8(2, 3, 4, 1)], False),
    ("rgb_to_hsv", lambda tf, x: tf.image.rgb_to_hsv(x), [f32(4, 5, 3)], True),
    ("rgb_to_hsv_f64", lambda tf, x: tf.image.rgb_to_hsv(x), [f64(2, 3, 4, 3)], True),
    ("hsv_to_rgb", lambda tf, x: tf.image.hsv_to_rgb(x), [f32(4, 5, 3)], False),
    ("hsv_round_trip", lambda tf, x: tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x)), [f32(3, 3, 3)], False),
    ("rgb_to_yiq", lambda tf, x: tf.image.rgb_to_yiq(x), [f32(3, 4, 3)], True),
    ("yiq_to_rgb", lambda tf, x: tf.image.yiq_to_rgb(x), [f32(2, 3, 4, 3, lo=-0.5, hi=1.0)], True),
    ("rgb_to_yuv", lambda tf, x: tf.image.rgb_to_yuv(x), [f64(3, 4, 3)], True),
    ("yuv_to_rgb", lambda tf, x: tf.image.yuv_to_rgb(x), [f32(3, 4, 3, lo=-0.5, hi=1.0)], True),
    ("gamma_f32", lambda tf, x: tf.image.adjust_gamma(x, 0.5, 1.2), [f32(3, 4, 3)], True),
    ("gamma_u8", lambda tf, x: tf.image.adjust_gamma(x, 2.2), [u8(3, 4, 3)], False),
    ("hue_f32", lambda tf, x: tf.image.adjust_hue(x, 0.2), [f32(5, 6, 3)], False),
    ("hue_negative", lambda tf, x: tf.image.adjust_hue(x, -0.7), [f32(2, 4, 5, 3)], False),
    ("hue_u8", lambda tf, x: tf.image.adjust_hue(x, 0.45), [u8(5, 5, 3)], False),
    ("saturation_f32", lambda tf, x: tf.image.adjust_saturation(x, 1.7), [f32(5, 6, 3)], False),
    ("saturation_down", lambda tf, x: tf.image.adjust_saturation(x, 0.3), [f32(2, 4, 5, 3)], False),
    ("saturation_u8", lambda tf, x: tf.image.adjust_saturation(x, 2.5), [u8(5, 5, 3)], False),
]

METRICS = [
    ("psnr_f32", lambda tf, a, b: tf.image.psnr(a, b, 1.0), [f32(2, 6, 7, 3), f32(2, 6, 7, 3)], True),
    ("psnr_u8", lambda tf, a, b: tf.image.psnr(a, b, 255), [u8(5, 4, 3), u8(5, 4, 3)], False),
    ("ssim_f32", lambda tf, a, b: tf.image.ssim(a, b, 1.0), [f32(2, 13, 15, 3), f32(2, 13, 15, 3)], True),
    ("ssim_u8", lambda tf, a, b: tf.image.ssim(a, b, 255), [u8(16, 12, 1), u8(16, 12, 1)], False),
    ("ssim_small_window", lambda tf, a, b: tf.image.ssim(a, b, 2.0, filter_size=5, filter_sigma=0.8, k1=0.02,
                                                          k2=0.05), [f32(9, 8, 2, hi=2.0), f32(9, 8, 2, hi=2.0)], True),
    ("ssim_index_map", lambda tf, a, b: tf.image.ssim(a, b, 1.0, return_index_map=True),
     [f32(1, 12, 13, 1), f32(1, 12, 13, 1)], False),
    # TensorFlow's gradient of this one is NaN everywhere, so only the value is recorded
    ("ms_ssim_three_scales", lambda tf, a, b: tf.image.ssim_multiscale(a, b, 1.0, power_factors=(0.3, 0.3, 0.4)),
     [f32(1, 45, 47, 2), f32(1, 45, 47, 2)], False),
    ("ms_ssim_default", lambda tf, a, b: tf.image.ssim_multiscale(a, b, 255), [u8(177, 180, 1), u8(177, 180, 1)],
     False),
    ("total_variation_3d", lambda tf, x: tf.image.total_variation(x), [f32(4, 5, 3)], True),
    ("total_variation_4d_u8", lambda tf, x: tf.image.total_variation(tf.cast(x, tf.int32)), [u8(2, 4, 5, 1)], False),
    ("image_gradients", lambda tf, x: tf.image.image_gradients(x), [f32(2, 4, 5, 3)], False),
    ("sobel_edges", lambda tf, x: tf.image.sobel_edges(x), [f32(2, 5, 6, 3)], True),
]

def _car(method="bilinear", extrapolation_value=0.0, size=(5, 4)):
    """crop_and_resize of random boxes (corners in either order, so some crops are flipped) from images 0 and 1."""
    return lambda tf, x, b: tf.image.crop_and_resize(x, b, [0, 1, 1, 0, 1][:b.shape.as_list()[0]], list(size),
                                                     method=method, extrapolation_value=extrapolation_value)


def _patches(k, s, r, padding):
    return lambda tf, x: tf.image.extract_image_patches(x, [1, k[0], k[1], 1], [1, s[0], s[1], 1],
                                                         [1, r[0], r[1], 1], padding)


def _draw(colors=None):
    return lambda tf, x, b: tf.image.draw_bounding_boxes(x, b, colors=colors)


CROPS = [
    ("crop_and_resize", _car(), [f32(2, 6, 7, 3), f32(5, 4, lo=-0.1, hi=1.1)], True),
    ("crop_and_resize_nearest", _car("nearest"), [f32(2, 6, 7, 2), f32(4, 4)], True),
    ("crop_and_resize_extrapolate", _car(extrapolation_value=-1.5), [f32(2, 5, 5, 1), f32(5, 4, lo=-0.5, hi=1.5)],
     True),
    ("crop_and_resize_u8", _car(size=(3, 6)), [u8(2, 8, 9, 3), f32(3, 4)], True),
    ("crop_and_resize_single_pixel", _car(size=(1, 1)), [f32(2, 4, 6, 2), f32(3, 4)], True),
    ("crop_and_resize_one_row", _car(size=(1, 5)), [f64(2, 4, 6, 1), f32(2, 4)], True),
    ("patches_valid", _patches((2, 3), (1, 2), (1, 1), "VALID"), [f32(2, 5, 7, 2)], True),
    ("patches_same_rates", _patches((3, 2), (2, 1), (2, 2), "SAME"), [f32(1, 7, 6, 3)], True),
    ("patches_u8_same", _patches((2, 2), (3, 3), (1, 1), "SAME"), [u8(2, 7, 8, 1)], False),
    ("extract_patches_v2", lambda tf, x: tf.image.extract_patches(x, [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1],
                                                                  "VALID"), [f64(1, 7, 7, 2)], True),
    ("draw_boxes_rgb", _draw(), [f32(2, 9, 11, 3), f32(2, 4, 4)], False),
    ("draw_boxes_outside", _draw(), [f32(1, 8, 8, 1), f32(1, 6, 4, lo=-0.6, hi=1.6)], False),
    ("draw_boxes_colors", _draw([[0.2, 0.4, 0.6, 1.0], [0.9, 0.1, 0.3, 0.5]]), [f32(1, 10, 9, 4), f32(1, 5, 4)],
     False),
    ("glimpse_inside", lambda tf, x, o: tf.image.extract_glimpse(x, [3, 4], o * 0.3),
     [f32(2, 9, 10, 2), f32(2, 2, lo=-1.0)], False),
    ("glimpse_pixels", lambda tf, x, o: tf.image.extract_glimpse(x, [2, 3], o, centered=False, normalized=False),
     [f32(2, 8, 9, 1), f32(2, 2, lo=1.0, hi=5.0)], False),
]

CASES = RESIZE + WINDOWS + NMS + COLOUR + METRICS + CROPS


ERROR_CASES = [
    ("resize_unknown_method", lambda tf: tf.image.resize_images(tf.zeros([4, 4, 1]), [2, 2], method=7)),
    ("resize_unknown_method_2d", lambda tf: tf.image.resize_images(tf.zeros([4, 4]), [2, 2], method="lanczos3")),
    ("resize_unknown_method_same_size", lambda tf: tf.image.resize_images(tf.zeros([4, 4, 1]), [4, 4], method=9)),
    ("bicubic_3d", lambda tf: tf.image.resize_bicubic(tf.zeros([4, 4, 1]), [2, 2])),
    ("area_size_3", lambda tf: tf.image.resize_area(tf.zeros([1, 4, 4, 1]), [2, 2, 2])),
    ("crop_bbox_2d", lambda tf: tf.image.crop_to_bounding_box(tf.zeros([4, 4]), 0, 0, 2, 2)),
    ("crop_bbox_neg_offset", lambda tf: tf.image.crop_to_bounding_box(tf.zeros([4, 4, 1]), -1, 0, 2, 2)),
    ("crop_bbox_zero_target", lambda tf: tf.image.crop_to_bounding_box(tf.zeros([4, 4, 1]), 0, 0, 0, 2)),
    ("crop_bbox_too_wide", lambda tf: tf.image.crop_to_bounding_box(tf.zeros([4, 4, 1]), 0, 1, 2, 4)),
    ("crop_bbox_too_tall", lambda tf: tf.image.crop_to_bounding_box(tf.zeros([4, 4, 1]), 3, 0, 2, 2)),
    ("pad_bbox_5d", lambda tf: tf.image.pad_to_bounding_box(tf.zeros([1, 1, 4, 4, 1]), 0, 0, 5, 5)),
    ("pad_bbox_neg_offset", lambda tf: tf.image.pad_to_bounding_box(tf.zeros([4, 4, 1]), 0, -1, 5, 5)),
    ("pad_bbox_too_small", lambda tf: tf.image.pad_to_bounding_box(tf.zeros([4, 4, 1]), 1, 0, 4, 5)),
    ("crop_or_pad_zero_target", lambda tf: tf.image.resize_image_with_crop_or_pad(tf.zeros([4, 4, 1]), 0, 3)),
    ("with_pad_zero_target", lambda tf: tf.image.resize_image_with_pad(tf.zeros([4, 4, 1]), 3, 0)),
    ("rot90_2d", lambda tf: tf.image.rot90(tf.zeros([4, 4]))),
    ("rot90_5d", lambda tf: tf.image.rot90(tf.zeros([1, 1, 4, 4, 1]))),
    ("transpose_5d", lambda tf: tf.image.transpose(tf.zeros([1, 1, 4, 4, 1]))),
    ("nms_boxes_3d", lambda tf: tf.image.non_max_suppression(tf.zeros([1, 4, 4]), tf.zeros([4]), 3)),
    ("nms_scores_2d", lambda tf: tf.image.non_max_suppression(tf.zeros([4, 4]), tf.zeros([4, 1]), 3)),
    ("nms_padded_batched_unpadded", lambda tf: tf.image.non_max_suppression_padded(
        tf.zeros([2, 4, 4]), tf.zeros([2, 4]), 3)),
    ("hue_2d", lambda tf: tf.image.adjust_hue(tf.placeholder_with_default(tf.zeros([4, 3]), [None, None]), 0.1)),
    ("hsv_two_channels", lambda tf: tf.image.rgb_to_hsv(tf.zeros([4, 4, 2]))),
    ("grayscale_to_rgb_3_channels", lambda tf: tf.image.grayscale_to_rgb(tf.zeros([4, 4, 3]))),
    ("grayscale_to_rgb_1d", lambda tf: tf.image.grayscale_to_rgb(tf.zeros([4]))),
    ("gamma_negative", lambda tf: tf.image.adjust_gamma(tf.zeros([4, 4, 3]), -1.0)),
    ("random_brightness_negative", lambda tf: tf.image.random_brightness(tf.zeros([4, 4, 3]), -0.1)),
    ("random_contrast_order", lambda tf: tf.image.random_contrast(tf.zeros([4, 4, 3]), 0.5, 0.5)),
    ("random_saturation_negative", lambda tf: tf.image.random_saturation(tf.zeros([4, 4, 3]), -0.5, 0.5)),
    ("random_hue_too_big", lambda tf: tf.image.random_hue(tf.zeros([4, 4, 3]), 0.6)),
    ("psnr_mismatch", lambda tf: tf.image.psnr(tf.zeros([4, 4, 3]), tf.zeros([4, 5, 3]), 1.0)),
    ("ssim_static_smaller_than_window", lambda tf: tf.image.ssim(tf.zeros([2, 9, 12, 1]), tf.zeros([2, 9, 12, 1]),
                                                                 1.0)),
    ("ssim_2d", lambda tf: tf.image.ssim(tf.zeros([11, 11]), tf.zeros([11, 11]), 1.0)),
    ("ssim_batch_mismatch", lambda tf: tf.image.ssim(tf.zeros([2, 11, 11, 1]), tf.zeros([3, 11, 11, 1]), 1.0)),
    ("total_variation_2d", lambda tf: tf.image.total_variation(tf.zeros([4, 4]))),
    ("image_gradients_3d", lambda tf: tf.image.image_gradients(tf.zeros([4, 4, 1]))),
    ("crop_and_resize_3d", lambda tf: tf.image.crop_and_resize(tf.zeros([4, 4, 1]), tf.zeros([1, 4]), [0], [2, 2])),
    ("crop_and_resize_boxes_1d", lambda tf: tf.image.crop_and_resize(tf.zeros([1, 4, 4, 1]), tf.zeros([4]), [0],
                                                                     [2, 2])),
    ("crop_and_resize_bad_method", lambda tf: tf.image.crop_and_resize(
        tf.zeros([1, 4, 4, 1]), tf.zeros([1, 4]), [0], [2, 2], method="bicubic")),
    ("patches_3d", lambda tf: tf.image.extract_image_patches(tf.zeros([4, 4, 1]), [1, 2, 2, 1], [1, 1, 1, 1],
                                                             [1, 1, 1, 1], "VALID")),
    ("draw_boxes_static_two_channels", lambda tf: tf.image.draw_bounding_boxes(tf.zeros([1, 4, 4, 2]),
                                                                                tf.zeros([1, 1, 4]))),
    ("draw_boxes_3d", lambda tf: tf.image.draw_bounding_boxes(tf.zeros([4, 4, 3]), tf.zeros([1, 1, 4]))),
    ("glimpse_3d", lambda tf: tf.image.extract_glimpse(tf.zeros([4, 4, 1]), [2, 2], tf.zeros([1, 2]))),
    ("sample_box_image_size_2d", lambda tf: tf.image.sample_distorted_bounding_box(
        tf.zeros([1, 3], tf.int32), tf.zeros([1, 1, 4]))),
    ("area_has_no_gradient", lambda tf: _no_grad(tf, lambda x: tf.image.resize_area(x[None], [2, 2]))),
    ("hue_has_no_gradient", lambda tf: _no_grad(tf, lambda x: tf.image.adjust_hue(x, 0.1))),
    ("combined_nms_zero_total", lambda tf: tf.image.combined_non_max_suppression(
        tf.zeros([1, 4, 1, 4]), tf.zeros([1, 4, 2]), 3, 0)),
]

def _int(tf, v):
    """An int32 known only at run time."""
    return tf.placeholder_with_default(v, [])


RUN_ERROR_CASES = [
    ("crop_bbox_fed_negative_offset", lambda tf: tf.image.crop_to_bounding_box(tf.zeros([4, 4, 1]), _int(tf, -1), 0,
                                                                               2, 2)),
    ("crop_bbox_fed_too_tall", lambda tf: tf.image.crop_to_bounding_box(tf.zeros([4, 4, 1]), 0, 0, _int(tf, 5), 2)),
    ("pad_bbox_fed_too_small", lambda tf: tf.image.pad_to_bounding_box(tf.zeros([4, 4, 1]), 0, 1, 4, _int(tf, 4))),
    ("crop_or_pad_fed_zero_target", lambda tf: tf.image.resize_image_with_crop_or_pad(tf.zeros([4, 4, 1]),
                                                                                      _int(tf, 0), 3)),
    ("patches_batch_ksize", lambda tf: tf.image.extract_image_patches(tf.zeros([1, 4, 4, 1]), [2, 2, 2, 1],
                                                                      [1, 1, 1, 1], [1, 1, 1, 1], "VALID")),
    ("sample_box_area_range_3", lambda tf: tf.image.sample_distorted_bounding_box(
        [4, 4, 3], tf.zeros([1, 1, 4]), area_range=[0.1, 0.5, 0.9])),
    ("crop_and_resize_bad_index", lambda tf: tf.image.crop_and_resize(
        tf.zeros([2, 4, 4, 1]), tf.zeros([2, 4]), [0, 2], [2, 2])),
    ("crop_and_resize_zero_size", lambda tf: tf.image.crop_and_resize(
        tf.zeros([1, 4, 4, 1]), tf.zeros([1, 4]), [0], tf.placeholder_with_default([0, 2], [2]))),
    ("draw_boxes_two_channels", lambda tf: tf.image.draw_bounding_boxes(
        tf.placeholder_with_default(tf.zeros([1, 4, 4, 2]), [1, 4, 4, None]), tf.zeros([1, 1, 4]))),
    ("draw_boxes_few_colors", lambda tf: tf.image.draw_bounding_boxes(_fed(tf, [1, 4, 4, 3]), tf.zeros([1, 1, 4]),
                                                                      colors=[[1.0, 0.0]])),
    ("sample_box_no_boxes", lambda tf: tf.image.sample_distorted_bounding_box(
        [4, 4, 3], tf.placeholder_with_default(tf.zeros([1, 0, 4]), [1, None, 4]))),
    ("hue_four_channels", lambda tf: tf.image.adjust_hue(_fed(tf, [4, 4, 4]), 0.1)),
    ("saturation_two_channels", lambda tf: tf.image.adjust_saturation(_fed(tf, [4, 4, 2]), 0.1)),
    ("bicubic_both_flags", lambda tf: tf.image.resize_bicubic(tf.zeros([1, 4, 4, 1]), [2, 2], align_corners=True,
                                                              half_pixel_centers=True)),
    ("area_negative_size", lambda tf: tf.image.resize_area(
        tf.zeros([1, 4, 4, 1]), tf.placeholder_with_default([-1, 2], [2]))),
    ("nms_iou_above_one", lambda tf: tf.image.non_max_suppression(tf.zeros([4, 4]), tf.zeros([4]), 3, 1.5)),
    ("nms_scores_mismatch", lambda tf: tf.image.non_max_suppression(
        tf.zeros([4, 4]), tf.placeholder_with_default(tf.zeros([3]), [None]), 3)),
    ("nms_boxes_5_columns", lambda tf: tf.image.non_max_suppression(
        tf.placeholder_with_default(tf.zeros([4, 5]), [None, None]), tf.zeros([4]), 3)),
    ("nms_negative_sigma", lambda tf: tf.image.non_max_suppression_with_scores(
        tf.zeros([4, 4]), tf.zeros([4]), 3, soft_nms_sigma=-1.0)),
]

# Cases whose float outputs need a looser bound than test_image_tf.TOL, with the reason.
# MS-SSIM multiplies five float32 powers of window means over four pooled scales: rounding grows to ~6e-5.
TOLERANCES: dict = {"ms_ssim_default": dict(rtol=2e-4, atol=1e-6)}


# ---- codecs: files written by the generator (TensorFlow's encoders; Pillow for palette PNG, GIF, BMP) and
# (name, fn(tf, contents) -> tensor(s), file, tolerance in pixel levels for integer outputs).
def _dec(op, **kw):
    return lambda tf, c: getattr(tf.image, op)(c, **kw)


_ACCURATE = {"dct_method": "INTEGER_ACCURATE"}

CODEC_CASES = [
    # Levels are the Pillow fallback's (test_jpeg_tf has the simplejpeg cases, all exact): TF's default DCT is
    # libjpeg's ifast, Pillow's is islow (= INTEGER_ACCURATE), measured within 5.
    ("jpeg_default", _dec("decode_jpeg"), "smooth.jpg", 5),
    ("jpeg_accurate", _dec("decode_jpeg", **_ACCURATE), "smooth.jpg", 0),
    ("jpeg_noise_accurate", _dec("decode_jpeg", **_ACCURATE), "noise444.jpg", 0),
    ("jpeg_gray_out", _dec("decode_jpeg", channels=1, **_ACCURATE), "smooth.jpg", 0),
    ("jpeg_gray_file_rgb_out", _dec("decode_jpeg", channels=3, **_ACCURATE), "gray.jpg", 0),
    ("jpeg_gray_file", _dec("decode_jpeg", **_ACCURATE), "gray.jpg", 0),
    ("jpeg_ratio_2", _dec("decode_jpeg", ratio=2, **_ACCURATE), "smooth.jpg", 0),
    ("jpeg_ratio_8", _dec("decode_jpeg", ratio=8, **_ACCURATE), "smooth.jpg", 0),
    # without fancy upsampling libjpeg replicates chroma; Pillow always interpolates it
    ("jpeg_no_fancy", _dec("decode_jpeg", fancy_upscaling=False, **_ACCURATE), "smooth.jpg", 8),
    ("jpeg_crop", lambda tf, c: tf.image.decode_and_crop_jpeg(c, [3, 5, 10, 12], **_ACCURATE), "smooth.jpg", 0),
    ("jpeg_shape", _dec("extract_jpeg_shape"), "smooth.jpg", 0),
    ("jpeg_shape_int64", lambda tf, c: tf.image.extract_jpeg_shape(c, output_type=tf.int64), "gray.jpg", 0),
    ("is_jpeg_yes", _dec("is_jpeg"), "smooth.jpg", 0),
    ("is_jpeg_no", _dec("is_jpeg"), "rgb.png", 0),
    ("jpeg_op_on_png", _dec("decode_jpeg"), "rgb.png", 0),
    ("png_rgb", _dec("decode_png"), "rgb.png", 0),
    ("png_rgba", _dec("decode_png"), "rgba.png", 0),
    ("png_rgba_to_rgb", _dec("decode_png", channels=3), "rgba.png", 0),
    ("png_rgb_to_gray", _dec("decode_png", channels=1), "rgb.png", 0),
    ("png_rgb_to_rgba", _dec("decode_png", channels=4), "rgb.png", 0),
    ("png_gray", _dec("decode_png"), "gray.png", 0),
    ("png_gray_to_rgb", _dec("decode_png", channels=3), "gray.png", 0),
    ("png_gray_alpha", _dec("decode_png"), "ga.png", 0),
    ("png_gray_alpha_to_rgba", _dec("decode_png", channels=4), "ga.png", 0),
    ("png_8bit_as_16", _dec("decode_png", dtype="uint16"), "rgb.png", 0),
    ("png_rgb16", _dec("decode_png", dtype="uint16"), "rgb16.png", 0),
    ("png_rgb16_as_8", _dec("decode_png"), "rgb16.png", 0),
    ("png_rgba16_to_gray", _dec("decode_png", channels=1, dtype="uint16"), "rgba16.png", 0),
    ("png_gray16", _dec("decode_png", dtype="uint16"), "gray16.png", 0),
    ("png_palette", _dec("decode_png"), "palette.png", 0),
    ("png_op_on_jpeg", _dec("decode_png", **{}), "smooth.jpg", 5),
    ("gif_frames", _dec("decode_gif"), "anim.gif", 0),
    ("gif_op_on_png", _dec("decode_gif"), "rgb.png", 0),
    ("webp_lossless", _dec("decode_webp"), "lossless.webp", 0),
    ("webp_alpha", _dec("decode_webp"), "alpha.webp", 0),
    ("webp_lossy", _dec("decode_webp"), "lossy.webp", 0),
    ("webp_channels_3", _dec("decode_webp", channels=3), "lossy.webp", 0),
    ("image_webp", _dec("decode_image"), "alpha.webp", 0),
    ("png_op_on_webp", _dec("decode_png"), "lossy.webp", 0),
    ("image_webp_first_frame", _dec("decode_image", expand_animations=False), "lossy.webp", 0),
    ("bmp_rgb", _dec("decode_bmp"), "rgb.bmp", 0),
    ("bmp_rgba", _dec("decode_bmp"), "rgba.bmp", 0),
    ("image_jpeg", _dec("decode_image"), "noise444.jpg", 5),
    ("image_png16", _dec("decode_image", dtype="uint16"), "rgb16.png", 0),
    ("image_png_float", _dec("decode_image", dtype="float32"), "rgba.png", 0),
    ("image_png_gray_out", _dec("decode_image", channels=1), "rgb.png", 0),
    ("image_gif", _dec("decode_image"), "anim.gif", 0),
    ("image_gif_first_frame", _dec("decode_image", expand_animations=False), "anim.gif", 0),
    ("image_bmp", _dec("decode_image", channels=3), "rgba.bmp", 0),
    ("image_png_as_int32", _dec("decode_image", dtype="int32"), "rgb16.png", 0),
    ("png_round_trip_16", lambda tf, c: tf.image.decode_png(
        tf.image.encode_png(tf.image.decode_png(c, dtype=tf.uint16), compression=9), dtype=tf.uint16),
     "rgba16.png", 0),
    ("png_round_trip_gray", lambda tf, c: tf.image.decode_png(tf.image.encode_png(tf.image.decode_png(c),
                                                                                  compression=0)), "ga.png", 0),
    ("jpeg_round_trip", lambda tf, c: tf.image.decode_jpeg(tf.image.encode_jpeg(tf.image.decode_png(c), quality=80),
                                                           **_ACCURATE), "rgb.png", 0),
    ("jpeg_round_trip_444_gray", lambda tf, c: tf.image.decode_jpeg(tf.image.encode_jpeg(
        tf.image.decode_png(c, channels=1), quality=60, chroma_downsampling=False), **_ACCURATE), "rgb.png", 0),
    ("jpeg_quality_float", lambda tf, c: tf.image.adjust_jpeg_quality(
        tf.image.convert_image_dtype(tf.image.decode_png(c), tf.float32), 40, **_ACCURATE), "rgb.png", 0),
]

CODEC_RUN_ERRORS = [
    ("garbage_png", _dec("decode_png"), "garbage"),
    ("garbage_jpeg", _dec("decode_jpeg"), "garbage"),
    ("garbage_image", _dec("decode_image"), "garbage"),
    ("truncated_jpeg", _dec("decode_jpeg"), "truncated.jpg"),
    ("truncated_png", _dec("decode_png"), "truncated.png"),
    ("bmp_op_on_jpeg", _dec("decode_bmp"), "smooth.jpg"),
    ("crop_outside", lambda tf, c: tf.image.decode_and_crop_jpeg(c, [20, 0, 10, 10]), "smooth.jpg"),
    ("jpeg_shape_of_png", _dec("extract_jpeg_shape"), "rgb.png"),
    ("webp_channels_mismatch", _dec("decode_webp", channels=4), "lossy.webp"),
]

CODEC_BUILD_ERRORS = [
    ("decode_png_vector", lambda tf: tf.image.decode_png(tf.placeholder(tf.string, [2]))),
    ("encode_png_2d", lambda tf: tf.image.encode_png(tf.zeros([4, 4], tf.uint8))),
    ("random_jpeg_quality_order", lambda tf: tf.image.random_jpeg_quality(tf.zeros([4, 4, 3]), 50, 40)),
    ("random_jpeg_quality_range", lambda tf: tf.image.random_jpeg_quality(tf.zeros([4, 4, 3]), 10, 140)),
]


# ---- edgelite_runtime.preprocessing.resize against TensorFlow 2's tf.image.resize (eager): (name, method,
# antialias, input spec, size).
RESIZE_V2 = [
    (f"v2_{method}_{'aa' if aa else 'plain'}_{tag}", method, aa, spec, size)
    for method in ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")
    for aa in (False, True)
    for tag, spec, size in (("down", f32(2, 13, 17, 3), (5, 6)), ("up", f32(1, 4, 5, 2), (9, 7)),
                            ("u8_mixed", u8(1, 9, 6, 1), (4, 11)))
]
