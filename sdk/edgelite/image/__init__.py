"""tf.compat.v1.image: resizing, crops and pads, flips and rotations, dtype conversion, photometric changes."""
from .bounding_box_ops import (  # noqa: F401
    crop_to_bounding_box, pad_to_bounding_box, resize_image_with_crop_or_pad, resize_image_with_pad,
)
from .codec_ops import (  # noqa: F401
    adjust_jpeg_quality, decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image, decode_jpeg, decode_jxl,
    decode_png, decode_webp, encode_jpeg, encode_png, extract_jpeg_shape, is_jpeg, random_jpeg_quality,
)
from .color_ops import (  # noqa: F401
    adjust_brightness, adjust_contrast, convert_image_dtype, per_image_standardization,
)
from .color_space_ops import (  # noqa: F401
    adjust_gamma, adjust_hue, adjust_saturation, grayscale_to_rgb, hsv_to_rgb, random_brightness, random_contrast,
    random_hue, random_saturation, rgb_to_grayscale, rgb_to_hsv, rgb_to_yiq, rgb_to_yuv, yiq_to_rgb, yuv_to_rgb,
)
from .crop_resize_ops import crop_and_resize  # noqa: F401
from .distort_ops import random_crop, sample_distorted_bounding_box  # noqa: F401
from .geometry_ops import (  # noqa: F401
    central_crop, flip_left_right, flip_up_down, random_flip_left_right, random_flip_up_down, rot90, transpose,
)
from .nms_ops import (  # noqa: F401
    combined_non_max_suppression, non_max_suppression, non_max_suppression_padded, non_max_suppression_with_overlaps,
    non_max_suppression_with_scores,
)
from .patch_ops import draw_bounding_boxes, extract_glimpse, extract_image_patches, extract_patches  # noqa: F401
from .quality_ops import image_gradients, psnr, sobel_edges, ssim, ssim_multiscale, total_variation  # noqa: F401
from .resize_ops import (  # noqa: F401
    ResizeMethod, resize, resize_area, resize_bicubic, resize_bilinear, resize_images, resize_nearest_neighbor,
)

resize_with_crop_or_pad = resize_image_with_crop_or_pad
transpose_image = transpose
non_max_suppression_overlaps = non_max_suppression_with_overlaps
